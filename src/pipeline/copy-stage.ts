/**
 * Stage 4: the page copy, per content id (the pages that show it decide its locales and schema),
 * with the templates it is validated by, and the check that a template used with copy has a schema.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ResolvedConfig } from '../config/load.js';
import { sourcesOf } from '../config/sources.js';
import type { Diagnostics } from '../diagnostics.js';
import { SiteError } from '../errors.js';
import type { TemplateSet } from '../render/types.js';
import { copySourceKey, loadCopy, type Page, type PageContent } from './content-api.js';
import type { PageSet } from './routes-stage.js';
import type { Runtime } from './runtime.js';
import { idOf, type StageRun } from './stage.js';

/**
 * Loads the copy of the pages that have `content:`, each content id kept on its own, by content key
 * ("hub/product:no"); its problems go to the run's diagnostics.
 */
export async function loadPageCopy(
  run: StageRun,
  config: ResolvedConfig,
  pageSet: PageSet,
  templates: TemplateSet,
  runtime: Runtime,
): Promise<Map<string, PageContent>> {
  const { markdown, parseYaml, copyCache } = runtime;
  run.forget((name) => name.startsWith('copy:') && !pageSet.byContent.has(name.slice('copy:'.length)));
  const loaded = await Promise.all(
    [...pageSet.byContent].map(([id, pages]) =>
      run.load(
        `copy:${id}`,
        copySourceKey(config, pages, idOf(templates)),
        (diagnostics) => loadCopy(config, pages, templates, diagnostics, { markdown, parseYaml, copyCache }),
        'copy',
      ),
    ),
  );
  await run.load('template check', `${idOf(pageSet)} ${idOf(templates)}`, (diagnostics) => {
    checkPageTemplates(config, pageSet.pages, templates, diagnostics);
    return true;
  });
  await run.load('legal review', `${idOf(config)} ${idOf(pageSet)}`, (diagnostics) => {
    diagnostics.add(...checkLegalReview(config, pageSet.byContent));
    return true;
  });
  const contents = new Map<string, PageContent>();
  for (const copy of loaded) for (const [key, value] of copy.value ?? []) contents.set(key, value);
  return contents;
}

/**
 * Legal pages ship as templates: until `legal.reviewed` is true, a warning names each file of the
 * copy listed under `legal.content` (the pages show no "this is a template" box to visitors).
 */
export function checkLegalReview(config: ResolvedConfig, byContent: ReadonlyMap<string, readonly Page[]>): SiteError[] {
  if (config.legal.reviewed) return [];
  const sources = sourcesOf(config);
  const warnings: SiteError[] = [];
  for (const id of config.legal.content) {
    const locales = [...new Set((byContent.get(id) ?? []).map((page) => page.locale))].sort();
    for (const locale of locales) {
      const base = join(sources.copy(id), locale);
      const file =
        ['.md', '.yaml'].map((extension) => base + extension).find((path) => existsSync(path)) ?? `${base}.md`;
      warnings.push(
        new SiteError({
          code: 'LEGAL_UNREVIEWED',
          severity: 'warning',
          message: `legal text "${id}" (${locale}) is a template that has not been reviewed`,
          file: sources.display(file),
        }),
      );
    }
  }
  return warnings;
}

/** A template used with `content:` must export the schema of that copy. */
export function checkPageTemplates(
  config: ResolvedConfig,
  pages: readonly Page[],
  templates: TemplateSet,
  diagnostics: Diagnostics,
): void {
  const sources = sourcesOf(config);
  for (const page of pages) {
    const template = templates.pages[page.template];
    if (page.content !== undefined && template && !template.content) {
      diagnostics.error({
        code: 'TEMPLATE_INVALID',
        message: `template ${page.template} is used with content: but exports no \`content\` schema`,
        file: sources.display(sources.pageTemplate(page.template)),
      });
    }
  }
}
