/**
 * The whole-site check of an edit before it is written: the site's last good build with the
 * edited translation put in its place (or taken out, for a deletion, a draft or a scheduled post),
 * its pages expanded again (two pages that would write one file), and every page whose render
 * read what the edit changes rendered again with the real templates, as the incremental rebuild
 * after the save would (its read-sets name them: a post's own pages, the lists and feeds of its
 * collection, and any new page). A template that refuses the edit (`templateError`) or fails on it
 * is an error here, before any file is touched. Nothing is kept: the build is not changed.
 */
import type { ResolvedConfig } from '../config/load.js';
import { createDiagnostics, uniqueDiagnostics } from '../diagnostics.js';
import { collectSiteErrors, SiteError } from '../errors.js';
import { checkComponentUses } from '../content/component-uses.js';
import type { IslandScripts } from '../render/render-pages.js';
import {
  createFeedFiles,
  createSiteRenderer,
  diffEntries,
  entryIndexKey,
  entryKey,
  expandPages,
  orderEntries,
  positionRenderProblem,
  referenceErrors,
  renderInputOf,
  type Entry,
  type Page,
} from '../pipeline/content-api.js';
import type { Build } from '../pipeline/result-stage.js';
import { siteFileNames } from '../pipeline/files-stage.js';
import { createLinkChecker, readSourceFile } from '../pipeline/links-stage.js';

/** The edit: the translation a post would have after it, or undefined when the site would no longer show it. */
export interface EntryEdit {
  collection: string;
  slug: string;
  locale: string;
  translation: Entry['translations'][string] | undefined;
  /** The edited file's text, not yet written: where the positions of its links are read from. */
  text?: string;
}

/** What the check found: the errors `site check` would report after the edit, and how many pages it rendered. */
export interface SiteCheck {
  errors: SiteError[];
  rendered: number;
}

/** The entries of `build` with the edit applied. */
export function entriesWithEdit(build: Pick<Build, 'entries'>, edit: EntryEdit): Map<string, Entry> {
  const key = entryKey(edit);
  const entries = new Map(build.entries);
  const before = entries.get(key);
  const translations = { ...before?.translations };
  if (edit.translation) translations[edit.locale] = edit.translation;
  else delete translations[edit.locale];
  if (Object.keys(translations).length)
    entries.set(key, { collection: edit.collection, slug: edit.slug, translations });
  else entries.delete(key);
  return entries;
}

/** Checks the whole site as it would be after `edit`. */
export function checkSiteWithEdit(build: Build, edit: EntryEdit): SiteCheck {
  const config: ResolvedConfig = build.config;
  // Its components and their attributes, as the build checks them (at their lines, field "body").
  const uses = edit.translation?.components;
  const refused = uses ? checkComponentUses(uses, edit.translation!.file, build.templates.components) : [];
  if (refused.length) return { errors: refused, rendered: 0 };
  const entries = entriesWithEdit(build, edit);
  const entryList = orderEntries(config, [...entries.values()]);
  let pages: readonly Page[];
  if (entryIndexKey(config, entryList) === entryIndexKey(config, build.entryList)) {
    // What routes read of the entries is unchanged (a title or a body edit): so are the pages.
    pages = build.pageSet.pages;
  } else {
    try {
      // Warnings (an untranslated post) are the build's to report; errors stop the save, at their
      // line in the edited text. On a copy of the config: expansion moves its lock of published
      // paths on, which only the rebuild after the save may do (a refused edit leaves no path behind).
      const editedFile = edit.translation?.file;
      pages = expandPages({ ...config }, entryList, createDiagnostics(), (file) =>
        file === editedFile ? edit.text : undefined,
      );
    } catch (error) {
      return { errors: collectSiteErrors(error) ?? [asError(error)], rendered: 0 };
    }
  }
  const changed = new Set<string>();
  diffEntries(build.entries, entries, changed, build.renders.readers.keys());
  const readers = new Set<string>();
  for (const key of changed) for (const file of build.renders.readers.get(key) ?? []) readers.add(file);
  const indexes = pages.flatMap((page, index) =>
    readers.has(page.file) || !build.renders.byFile.has(page.file) ? [index] : [],
  );

  const islands = (build as Build & { islands?: IslandScripts }).islands ?? { entries: {}, graph: {} };
  const input = renderInputOf({
    config,
    pages,
    messages: build.messages,
    contents: build.contents,
    entries: entryList,
    stylesheet: build.stylesheet,
  });
  const renderer = createSiteRenderer(input, build.templates, islands, false);
  const errors: SiteError[] = [];
  const rendered = new Map<string, string>();
  for (const index of indexes) {
    try {
      rendered.set(pages[index]!.file, renderer.renderOne(index).html);
    } catch (error) {
      errors.push(...(collectSiteErrors(error) ?? [asError(error, pages[index]!.url)]).map(positionRenderProblem));
    }
  }
  try {
    createFeedFiles({ config, entries: entryList, messages: build.messages });
  } catch (error) {
    errors.push(...(collectSiteErrors(error) ?? [asError(error)]));
  }
  errors.push(...checkLinksWithEdit(build, { pages, entryList, rendered, edit }));
  errors.push(
    ...referenceErrors(config, entryList, (file) => (file === edit.translation?.file ? edit.text : undefined)),
  );
  return { errors: uniqueDiagnostics(errors), rendered: indexes.length };
}

/**
 * The links of the site as it would be after `edit` (links-stage.ts), with the pages `rendered`
 * for it and the build's HTML of the others: a post that links nowhere, or the removal of a page
 * another links to, is refused as `site check` would refuse it.
 */
export function checkLinksWithEdit(
  build: Build,
  after: {
    pages: readonly Page[];
    entryList: readonly Entry[];
    rendered: ReadonlyMap<string, string>;
    edit: EntryEdit;
  },
): SiteError[] {
  const { edit } = after;
  const editedFile = edit.translation?.file;
  const htmlOf = (file: string) => {
    const html = after.rendered.get(file) ?? build.renders.byFile.get(file)?.html ?? build.files.get(file);
    return typeof html === 'string' ? html : undefined;
  };
  return createLinkChecker().check({
    config: build.config,
    pages: after.pages,
    entryList: after.entryList,
    contents: build.contents,
    otherFiles: siteFileNames(build.siteFiles),
    htmlOf,
    readSource: (file) => (file === editedFile && edit.text !== undefined ? edit.text : readSourceFile(file)),
  });
}

function asError(error: unknown, url?: string): SiteError {
  const message = error instanceof Error ? error.message : String(error);
  return new SiteError({ code: 'RENDER_FAILED', message: url ? `${url}: ${message}` : message });
}
