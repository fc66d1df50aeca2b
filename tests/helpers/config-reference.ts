/**
 * The "Every key" part of docs/config.md, made from the zod schema: each top-level key of
 * `site.config.yaml` with its description and the keys under it, so the section an error's hint
 * names (`See docs/config.md#company.`) exists and says what the schema says.
 */
import { configSchema } from '../../src/config/schema';
import { descriptionAt, expectedAt, knownKeysAt } from '../../src/schema-shape';

export const referenceStart =
  '<!-- every-key:start (made from src/config/schema.ts by tests/helpers/config-reference.ts) -->';
export const referenceEnd = '<!-- every-key:end -->';

/** The Markdown of the section, between its two markers. */
export function configReference(): string {
  const out = [referenceStart, ''];
  for (const key of knownKeysAt(configSchema, [])) {
    out.push(`### ${key}`, '');
    const description = descriptionAt(configSchema, [key]);
    const takes = expectedAt(configSchema, [key]);
    const inner = knownKeysAt(configSchema, [key]);
    const named = inner.length === 0 ? knownKeysAt(configSchema, [key, '*']) : [];
    const listed = inner.length ? inner : named;
    const parts = [
      description ? `${description.replace(/[.\s]+$/, '')}.` : undefined,
      inner.length
        ? `Keys: ${listed.map((name) => `\`${name}\``).join(', ')}.`
        : named.length
          ? `Named entries, each with ${listed.map((name) => `\`${name}\``).join(', ')}.`
          : takes
            ? `Takes ${takes}.`
            : undefined,
    ].filter(Boolean);
    out.push(parts.join(' '), '');
    for (const name of listed) {
      const path = inner.length ? [key, name] : [key, '*', name];
      const about = descriptionAt(configSchema, path);
      if (about) out.push(`- \`${name}\`: ${about.replace(/[.\s]+$/, '')}.`);
    }
    if (listed.some((name) => descriptionAt(configSchema, inner.length ? [key, name] : [key, '*', name]))) out.push('');
  }
  out.push(referenceEnd);
  return out.join('\n');
}
