/**
 * Page copy: `content/pages/<id>/<locale>.yaml` (or `.md` with front matter for long documents),
 * validated by the `content` schema of the page's template, with the locales checked for parity.
 * The site's `{name}` placeholders (`{minutes}`: see copyValuesOf) are filled in every text.
 */
import { dirname, join, relative } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { hashParts, type DiskCache } from '../cache/disk-cache.js';
import type { z } from 'zod';
import { adminCopyFiles, isAdminTemplate } from '../admin-pages.js';
import type { ResolvedConfig } from '../config/load.js';
import { sourcesOf } from '../config/sources.js';
import type { Diagnostics } from '../diagnostics.js';
import type { Page } from '../routes/pages.js';
import type { ParseYaml } from '../cache/yaml-cache.js';
import { parseYaml, validateYaml, yamlValue, type YamlSource } from '../yaml-source.js';
import { bodyStartLine, splitFrontMatter } from './front-matter.js';
import { markdownFailure, markdownLimitError, markdownPluginsOf } from './markdown.js';
import { resolveMarkdownImages, type MarkdownImage } from './markdown-images.js';
import { placeUses } from './component-uses.js';
import type { ComponentUse } from './directives.js';
import { readTextFile } from './text-file.js';
import { defaultMarkdownRenderer, type MarkdownRenderer } from './markdown-cache.js';
import { copyValuesOf, fillPlaceholders } from './messages.js';
import { checkParity } from './parity.js';
import { didYouMeanText } from '../did-you-mean.js';

/** Copy of one content id in one locale; `html` holds the rendered body of a Markdown file. */
export type PageContent = Record<string, unknown>;

/** The image files a page's Markdown copy shows, by the copy as loadPageContent returns it (the copy itself holds only what its template's schema takes). */
const copyImages = new WeakMap<PageContent, MarkdownImage[]>();

/** The components a page's Markdown copy uses, with its file, by the copy as loadPageContent returns it. */
const copyComponents = new WeakMap<PageContent, { file: string; uses: ComponentUse[] }>();

/** The components the Markdown body of a page's copy uses (content/directives.ts), placed in its file: the build checks them. */
export function copyComponentsOf(copy: PageContent): { file: string; uses: readonly ComponentUse[] } | undefined {
  return copyComponents.get(copy);
}

/** The image files the Markdown body of a page's copy shows (content/markdown-images.ts): the build publishes their variants. */
export function copyImagesOf(copy: PageContent): readonly MarkdownImage[] {
  return copyImages.get(copy) ?? [];
}

/** The key of a content entry: "hub/product:no". */
export function contentKey(id: string, locale: string): string {
  return `${id}:${locale}`;
}

/** Loads the copy of every page that has `content:`; problems go to `diagnostics`, not thrown. */
export async function loadPageContent(
  config: ResolvedConfig,
  pages: readonly Page[],
  schemaOf: (template: string) => z.ZodType | undefined,
  diagnostics: Diagnostics,
  options: { markdown?: MarkdownRenderer; parseYaml?: ParseYaml; validated?: ValidatedCopy } = {},
): Promise<Map<string, PageContent>> {
  const markdown = options.markdown ?? defaultMarkdownRenderer();
  const parse = options.parseYaml ?? parseYaml;
  const wanted = new Map<string, { id: string; locale: string; template: string; route: string }>();
  for (const page of pages) {
    if (page.content === undefined) continue;
    const key = contentKey(page.content, page.locale);
    if (!wanted.has(key)) wanted.set(key, { id: page.content, locale: page.locale, template: page.template, route: page.route.path });
  }
  const contents = new Map<string, PageContent>();
  const sourcesById = new Map<string, YamlSource[]>();
  await Promise.all([...wanted.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(async ([key, entry]) => {
    const loaded = await readContentFile(config, entry, diagnostics, markdown, parse);
    if (!loaded) return;
    const list = sourcesById.get(entry.id) ?? [];
    list.push(loaded.source);
    sourcesById.set(entry.id, list);
    const schema = schemaOf(entry.template);
    if (!schema) return;
    const extra = loaded.html === undefined ? undefined : { html: loaded.html };
    const data = validatedCopy(loaded.source, schema, extra, diagnostics, options.validated && { ...options.validated, template: entry.template });
    // The engine's admin copy names the site as `{siteName}`, having no name of its own to say.
    const values = isAdminTemplate(entry.template) ? { ...copyValuesOf(config), siteName: config.site.name } : copyValuesOf(config);
    if (!data) return;
    const copy = fillCopy(data, values) as PageContent;
    if (loaded.images?.length) copyImages.set(copy, loaded.images);
    if (loaded.components?.length) copyComponents.set(copy, { file: loaded.file!, uses: loaded.components });
    contents.set(key, copy);
  }));
  for (const sources of sourcesById.values()) {
    const sorted = sources.sort((a, b) => (a.file < b.file ? -1 : 1));
    for (const other of sorted.slice(1)) checkParity(sorted[0]!, other, diagnostics);
  }
  return contents;
}

/**
 * Copy that passed its template's schema before, kept by what it was made of: the templates'
 * bundle (named by its content) and the zod that ran it (`schemas`), the template, the copy's data.
 * A template's schema is code the build does not otherwise look into: the real site's 400-odd
 * copy files took 33 ms of every build to validate again.
 */
export interface ValidatedCopy {
  cache: DiskCache;
  schemas: string;
}

/** The copy's data as the template's schema outputs it, from `validated` when it passed before; undefined when it does not pass (the problems go to `diagnostics`). */
function validatedCopy(source: YamlSource, schema: z.ZodType, extra: { html: string } | undefined, diagnostics: Diagnostics, validated: (ValidatedCopy & { template: string }) | undefined): unknown {
  const key = validated && hashParts(validated.schemas, validated.template, JSON.stringify(yamlValue(source) ?? null), extra?.html ?? '');
  const stored = key && validated.cache.readSync(key);
  if (stored) {
    try {
      return deserialize(stored);
    } catch {
      // A damaged entry: validated again.
    }
  }
  const { data, errors } = validateYaml(source, schema, 'CONTENT_INVALID', extra);
  diagnostics.add(...errors);
  if (key && data !== undefined) {
    try {
      void validated.cache.write(key, serialize(data));
    } catch {
      // What V8 cannot copy (a function a schema made) is validated at every build.
    }
  }
  return data;
}

/**
 * The copy of one content id in one locale: the site's file (.yaml or .md); for an admin screen of
 * the engine without one, the engine's default copy (src/admin/ui/copy/), which the site's file
 * replaces whole when there is one.
 */
async function readContentFile(
  config: ResolvedConfig,
  { id, locale, route, template }: { id: string; locale: string; route: string; template: string },
  diagnostics: Diagnostics,
  markdown: MarkdownRenderer,
  parse: ParseYaml,
): Promise<{ source: YamlSource; html?: string; images?: MarkdownImage[]; components?: ComponentUse[]; file?: string } | undefined> {
  const base = join(sourcesOf(config).copy(id), locale);
  const candidates = [base + '.yaml', base + '.md', ...(isAdminTemplate(template) ? adminCopyFiles(id, locale) : [])];
  for (const path of candidates) {
    const extension = path.endsWith('.md') ? '.md' : '.yaml';
    let text: string;
    try {
      text = readTextFile(path, diagnostics);
    } catch {
      continue;
    }
    const file = relative(process.cwd(), path);
    const here = diagnostics.child({ file });
    if (extension === '.yaml') {
      const { source, errors: syntax } = parse(text, file);
      diagnostics.add(...syntax);
      return syntax.length ? undefined : { source };
    }
    const { source, body, errors: syntax } = splitFrontMatter(text, file, parse);
    diagnostics.add(...syntax);
    if (syntax.length) return undefined;
    const bodyLine = bodyStartLine(text, body);
    const tooMuch = markdownLimitError(body, bodyLine, file, config.markdown);
    if (tooMuch) {
      diagnostics.add(tooMuch);
      return undefined;
    }
    const filled = fillPlaceholders(fillCompanyTokens(body, config, file, diagnostics, bodyLine), copyValuesOf(config));
    const [rendered] = await markdown.renderAll([filled], markdownPluginsOf(config));
    if (!rendered || 'error' in rendered) {
      here.error(markdownFailure(rendered ?? { error: 'no output' }, file, bodyLine));
      return undefined;
    }
    const shown = await resolveMarkdownImages(rendered, dirname(path), { file, bodyLine });
    diagnostics.add(...shown.errors);
    if (shown.errors.length) return undefined;
    return {
      source,
      html: shown.html,
      ...(shown.images.length ? { images: shown.images } : {}),
      ...(rendered.components ? { components: placeUses(rendered.components, bodyLine), file } : {}),
    };
  }
  diagnostics.error({
    code: 'CONTENT_MISSING',
    message: `route "${route}" needs ${relative(process.cwd(), base)}.yaml (or .md) for locale "${locale}"`,
    file: relative(process.cwd(), base + '.yaml'),
  });
  return undefined;
}

/** `copy` with the `{name}` placeholders of `values` filled in each of its strings, however deep. */
function fillCopy(copy: unknown, values: Record<string, string | number>): unknown {
  if (typeof copy === 'string') return fillPlaceholders(copy, values);
  if (Array.isArray(copy)) return copy.map((item) => fillCopy(item, values));
  if (typeof copy === 'object' && copy !== null && Object.getPrototypeOf(copy) === Object.prototype) {
    return Object.fromEntries(Object.entries(copy).map(([key, value]) => [key, fillCopy(value, values)]));
  }
  return copy;
}

/**
 * Replaces `{{company.legalName}}`-style tokens in Markdown with the company facts of the config;
 * a site without `company:` (or without its orgNumber) knows none of them (or not that one).
 * `firstLine` is the line of the file the text starts on (after front matter), for positions.
 */
export function fillCompanyTokens(text: string, config: Pick<ResolvedConfig, 'company'>, file: string, diagnostics: Diagnostics, firstLine = 1): string {
  const { company } = config;
  const values: Record<string, string> = company
    ? {
        'company.legalName': company.legalName,
        'company.address': `${company.address.street}, ${company.address.postalCode} ${company.address.city}`,
        ...(company.orgNumber !== undefined ? { 'company.orgNumber': company.orgNumber } : {}),
        'company.email': company.email,
      }
    : {};
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (match, name: string, offset: number) => {
    if (name in values) return values[name]!;
    const before = text.slice(0, offset).split('\n');
    const line = firstLine + before.length - 1;
    const column = before.at(-1)!.length + 1;
    diagnostics.error({ code: 'CONTENT_INVALID', message: `unknown token ${match}${didYouMeanText(`{{${name}}}`, Object.keys(values).map((key) => `{{${key}}}`))}`, file, line, column, hint: `Known tokens: ${Object.keys(values).map((key) => `{{${key}}}`).join(', ')}.` });
    return match;
  });
}
