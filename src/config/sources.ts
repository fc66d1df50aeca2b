/**
 * Where every input of a site lives, made from the config's `paths:` in one place: the loaders,
 * the error messages and `site dev`'s watcher ask this object, never build a path themselves.
 *
 *   <content>/messages/<locale>.yaml          UI messages
 *   <content>/pages/<id>/<locale>.yaml|.md    page copy
 *   <content>/<collection folder>/<slug>/<locale>.md   collection entries
 *   <templates>/pages/<Name>.tsx              page templates; layout/Layout.tsx; islands/; styles/main.css
 *   (the admin's screens, `@admin/<Name>`, are the engine's: src/admin/ui/, see admin-pages.ts)
 *   <public>/                                 files copied as they are
 */
import { join, relative } from 'node:path';
import { adminTemplateFile, isAdminTemplate } from '../admin-pages.js';
import type { ResolvedConfig } from './load.js';
import { collectionNamed } from './collection-named.js';

/** The source locations of one site. Every method returns an absolute path. */
export interface Sources {
  messagesFolder: string;
  messages(locale: string): string;
  copyFolder: string;
  /** The folder of one content id ("hub/product"). */
  copy(id: string): string;
  /** The folder of a collection's entries. */
  collection(name: string): string;
  /** One entry's translation: `<folder>/<slug>/<locale>.md`. */
  entry(collection: string, slug: string, locale: string): string;
  templatesFolder: string;
  pageTemplatesFolder: string;
  /** A page template: `<templates>/pages/<Name>.tsx`, or an admin screen of the engine (`@admin/<Name>`, src/admin/ui/pages/). */
  pageTemplate(name: string): string;
  layout: string;
  islandsFolder: string;
  /** The site's content components, which Markdown names by directive (`templates/content/`). */
  contentComponentsFolder: string;
  stylesheet: string;
  /** A path as messages show it: relative to the working directory. */
  display(path: string): string;
}

/** The places inside a templates folder (the loaders of templates, islands and styles get only the folder). */
export function templateSources(
  templates: string,
): Pick<
  Sources,
  | 'templatesFolder'
  | 'pageTemplatesFolder'
  | 'pageTemplate'
  | 'layout'
  | 'islandsFolder'
  | 'contentComponentsFolder'
  | 'stylesheet'
> {
  const pageTemplatesFolder = join(templates, 'pages');
  return {
    templatesFolder: templates,
    pageTemplatesFolder,
    pageTemplate: (name) =>
      isAdminTemplate(name) ? adminTemplateFile(name) : join(pageTemplatesFolder, `${name}.tsx`),
    layout: join(templates, 'layout', 'Layout.tsx'),
    islandsFolder: join(templates, 'islands'),
    contentComponentsFolder: join(templates, 'content'),
    stylesheet: join(templates, 'styles', 'main.css'),
  };
}

const made = new WeakMap<ResolvedConfig, Sources>();

export { collectionNamed } from './collection-named.js';

/** The source locations of a config (one object per config). */
export function sourcesOf(config: Pick<ResolvedConfig, 'dirs' | 'collections'>): Sources {
  const cached = made.get(config as ResolvedConfig);
  if (cached) return cached;
  const { content, templates } = config.dirs;
  const messagesFolder = join(content, 'messages');
  const copyFolder = join(content, 'pages');
  const collection = (name: string) => join(content, collectionNamed(config, name)?.folder ?? name);
  const sources: Sources = {
    messagesFolder,
    messages: (locale) => join(messagesFolder, `${locale}.yaml`),
    copyFolder,
    copy: (id) => join(copyFolder, id),
    collection,
    entry: (name, slug, locale) => join(collection(name), slug, `${locale}.md`),
    ...templateSources(templates),
    display: (path) => relative(process.cwd(), path) || path,
  };
  made.set(config as ResolvedConfig, sources);
  return sources;
}
