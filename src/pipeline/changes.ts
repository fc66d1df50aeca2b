/**
 * Which input a changed file feeds, from its path alone (pure): the config, the templates, the
 * stylesheets, public/, the messages, one entry of a collection, or one page's copy; and which kept
 * outputs of the pipeline that makes stale. A run after changes loads again only the inputs they name.
 */
import { isAbsolute, relative, sep } from 'node:path';

/** The input a changed file belongs to. */
export type InputChange =
  | { kind: 'config' }
  /** A template or island; `withStyles` when the whole templates folder changed (stylesheets included). */
  | { kind: 'templates'; withStyles?: boolean }
  | { kind: 'styles' }
  | { kind: 'public' }
  | { kind: 'messages' }
  /** The content folder itself (deleted or restored): every input read from it. */
  | { kind: 'content' }
  /** A collection's folder itself (an entry added or removed) or a file of one entry. */
  | { kind: 'entry'; collection: string; slug?: string }
  /** A file or folder under content/pages/; `id` is its folder ("hub/product"), "" for content/pages itself. */
  | { kind: 'copy'; id: string }
  | { kind: 'none' };

/** The watched places of a site, as absolute paths. */
export interface WatchedPaths {
  configFile: string;
  dirs: { content: string; templates: string; public: string };
  /** The folder of the messages, of the page copy, and of each collection (from the config's Sources). */
  messages: string;
  copy: string;
  collections: Record<string, string>;
  /** The plugin files of the config given by path (not packages): a change to one is a change of the config. */
  pluginFiles?: readonly string[];
}

/** The parts of `path` below `dir`, or undefined when it is not inside. */
function partsBelow(dir: string, path: string): string[] | undefined {
  const rel = relative(dir, path);
  if (rel === '') return [];
  if (rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel.split(sep);
}

/** Classifies one changed path (absolute); `isDirectory` for folder events. */
export function classifyChange(path: string, watched: WatchedPaths, isDirectory = false): InputChange {
  if (path === watched.configFile || watched.pluginFiles?.includes(path)) return { kind: 'config' };
  const inContent = partsBelow(watched.dirs.content, path);
  if (inContent) {
    if (inContent.length === 0) return { kind: 'content' };
    if (partsBelow(watched.messages, path)) return { kind: 'messages' };
    for (const [collection, folder] of Object.entries(watched.collections)) {
      const rest = partsBelow(folder, path);
      if (rest) return { kind: 'entry', collection, slug: rest[0] };
    }
    const rest = partsBelow(watched.copy, path);
    if (rest) {
      if (rest.length === 0) return { kind: 'copy', id: '' };
      const folder = isDirectory ? rest : rest.slice(0, -1);
      return folder.length > 0 ? { kind: 'copy', id: folder.join('/') } : { kind: 'none' };
    }
    return { kind: 'none' };
  }
  const inTemplates = partsBelow(watched.dirs.templates, path);
  if (inTemplates) {
    if (inTemplates.length === 0) return { kind: 'templates', withStyles: true };
    return inTemplates[0] === 'styles' && (isDirectory || path.endsWith('.css'))
      ? { kind: 'styles' }
      : { kind: 'templates' };
  }
  if (partsBelow(watched.dirs.public, path)) return { kind: 'public' };
  return { kind: 'none' };
}

/**
 * The kept outputs a change makes stale, as a test on their names: "config", "templates",
 * "islands", "assets", "messages", "entries" (the keys of every entry), "entry:<collection>/<slug>", "copy:<id>".
 */
export function staleOutputs(input: InputChange): (name: string) => boolean {
  switch (input.kind) {
    case 'config':
      return (name) => name === 'config';
    case 'templates':
      // A page template added or removed changes the names the config is checked against.
      return (name) =>
        name === 'config' ||
        name === 'templates' ||
        name === 'islands' ||
        (input.withStyles === true && name === 'assets');
    case 'styles':
    case 'public':
      return (name) => name === 'assets';
    case 'messages':
      return (name) => name === 'messages';
    case 'content':
      return (name) =>
        name === 'messages' || name === 'entries' || name.startsWith('entry:') || name.startsWith('copy:');
    case 'entry':
      return (name) =>
        name === 'entries' || (input.slug !== undefined && name === `entry:${input.collection}/${input.slug}`);
    case 'copy': {
      // A folder event names every copy below it too.
      const { id } = input;
      return (name) =>
        name.startsWith('copy:') && (id === '' || name === `copy:${id}` || name.startsWith(`copy:${id}/`));
    }
    case 'none':
      return () => false;
  }
}
