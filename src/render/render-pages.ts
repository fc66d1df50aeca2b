/**
 * Renders pages to what the build writes: the HTML with the island scripts added, the scripts the
 * page loads, or the problem that stopped it, as plain data, so the same function serves the main
 * thread and the workers of the pool.
 */
import { SiteError, type SiteErrorOptions } from '../errors.js';
import { adminIslandNames } from '../admin-pages.js';
import { sourcesOf } from '../config/sources.js';
import { addIslandScripts, islandsInHtml, type IslandBundle } from '../islands/bundle.js';
import type { Page } from '../routes/pages.js';
import { withBase } from './base-path.js';
import { createRenderer, type RenderInput } from './render.js';
import { unknownIslandError } from './template-positions.js';

/** The islands as rendering needs them: entry URLs and the files each loads. */
export type IslandScripts = Pick<IslandBundle, 'entries' | 'graph'>;

/** A SiteError as plain data (it crosses threads). */
export type SiteErrorData = Omit<SiteErrorOptions, 'cause'>;

/** One rendered page (with what its render read, when tracked), or its error. */
export type PageOutput = RenderedPage | { error: SiteErrorData };

/** One rendered page. */
export interface RenderedPage {
  html: string;
  scripts: string[];
  /** The inputs its render read (see `RenderDependency`), when tracked. */
  reads?: Set<string>;
}

/** A renderer of the pages of one build, by index into `input.pages`. */
export interface PageRenderer {
  /** Renders pages; a page's SiteError comes back as data in its place. */
  render(indexes: readonly number[]): PageOutput[];
  /** Renders one page; throws its SiteError. */
  renderOne(index: number): RenderedPage;
}

/** Creates the renderer of one build; with `track`, each page comes with what its render read. */
export function createPageRenderer(
  input: Omit<RenderInput, 'track'>,
  islands: IslandScripts,
  options: { track?: boolean } = {},
): PageRenderer {
  let reads: Set<string> | undefined;
  const renderer = createRenderer(options.track ? { ...input, track: (dependency) => reads!.add(dependency) } : input);
  // Under a base path (site.base), every root-relative URL of the finished page gets it.
  const base = input.config.site.base;
  const sources = sourcesOf(input.config);
  const finish = (page: Page, html: string) => {
    // An island no bundle hydrates would ship a script of no address: refused at the template's line.
    const unknown = islandsInHtml(html).find((name) => !Object.hasOwn(islands.entries, name));
    if (unknown !== undefined) {
      // The admin's screens are the engine's own: no template of the site names them.
      const named = Object.keys(islands.entries).filter((name) => !adminIslandNames.includes(name));
      throw unknownIslandError(unknown, named, {
        templatesDir: sources.templatesFolder,
        islandsDir: sources.islandsFolder,
        template: sources.pageTemplate(page.template),
        url: page.url,
        display: sources.display,
      });
    }
    return addIslandScripts(base ? withBase(html, base) : html, islands, base);
  };
  const renderOne = (index: number): RenderedPage => {
    const page = input.pages[index]!;
    if (!options.track) return finish(page, renderer.renderPage(page));
    reads = new Set([`page:${page.url}`]);
    try {
      return { ...finish(page, renderer.renderPage(page)), reads };
    } finally {
      reads = undefined;
    }
  };
  return {
    renderOne,
    render(indexes) {
      return indexes.map((index) => {
        try {
          return renderOne(index);
        } catch (error) {
          if (!(error instanceof SiteError)) throw error;
          return { error: errorData(error) };
        }
      });
    },
  };
}

/** The data of a SiteError. */
export function errorData(error: SiteError): SiteErrorData {
  return {
    code: error.code,
    message: error.message,
    file: error.file,
    line: error.line,
    column: error.column,
    field: error.field,
    hint: error.hint,
  };
}
