/**
 * The part of docs/plugins.md that says what each hook of a site plugin is given, made from the
 * types of `src/config/plugin-api.ts` (the TypeScript compiler reads their members and doc
 * comments), so the manual names exactly the fields a plugin can read: `ctx.locale`, never a
 * `ctx.page.locale` that is not there.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { repoRoot } from './paths';

export const pluginReferenceStart =
  '<!-- hook-contexts:start (made from src/config/plugin-api.ts by tests/helpers/plugin-reference.ts) -->';
export const pluginReferenceEnd = '<!-- hook-contexts:end -->';

interface Member {
  name: string;
  type: string;
  optional: boolean;
  doc: string;
}

/** The members of each interface of the plugin API, by interface name. */
function interfacesOf(file: string): Map<string, Member[]> {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = new Map<string, Member[]>();
  source.forEachChild((node) => {
    if (!ts.isInterfaceDeclaration(node)) return;
    const members: Member[] = [];
    for (const member of node.members) {
      if (!ts.isPropertySignature(member) || !member.type) continue;
      const doc = ts
        .getJSDocCommentsAndTags(member)
        .map((comment) => (typeof comment.comment === 'string' ? comment.comment : ''))
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim();
      members.push({
        name: member.name.getText(source),
        type: member.type.getText(source).replace(/\s+/g, ' '),
        optional: member.questionToken !== undefined,
        doc,
      });
    }
    found.set(node.name.text, members);
  });
  return found;
}

/** The hooks and the interface of what each is given. */
const hooks = [
  ['headTags(ctx)', 'HeadTagsContext'],
  ['routes(ctx) and collections(ctx)', 'ConfigContext'],
  ['buildEnd(ctx)', 'BuildEndContext'],
] as const;

/** The Markdown of the section, between its two markers. */
export function pluginReference(): string {
  const types = interfacesOf(join(repoRoot, 'src', 'config', 'plugin-api.ts'));
  const out = [pluginReferenceStart, ''];
  const rows = (members: readonly Member[], prefix: string): string[] =>
    members.flatMap((member) => {
      const path = `${prefix}${member.name}`;
      const row = `| \`${path}\`${member.optional ? ' (optional)' : ''} | \`${member.type.replace(/\|/g, '\\|')}\` | ${member.doc.replace(/\|/g, '\\|')} |`;
      const element = member.type.endsWith('[]') ? member.type.slice(0, -2) : member.type;
      const nested = types.get(element);
      return nested ? [row, ...rows(nested, `${path}${member.type.endsWith('[]') ? '[]' : ''}.`)] : [row];
    });
  for (const [hook, type] of hooks) {
    out.push(`#### \`${hook}\``, '', '| Field | Type | What it is |', '| --- | --- | --- |');
    out.push(...rows(types.get(type) ?? [], 'ctx.'), '');
  }
  out.push(pluginReferenceEnd);
  return out.join('\n');
}
