/**
 * The files of a collection's posts, addressed by slug and locale only (the client never sends a
 * path): the slug must match the build's pattern and the locale be one of the config's; the path
 * is checked to stay inside content/ with no symbolic link on the way. A post's version is a
 * hash of its bytes. (Writes are atomic, src/atomic-write.ts, and one at a time per file, write-queue.ts.)
 */
import { createHash } from 'node:crypto';
import { lstat, readFile, readdir, realpath, rm, rmdir } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import type { ResolvedConfig } from '../config/load.js';
import { sourcesOf } from '../config/sources.js';
import { entrySlugPattern } from '../content/collections.js';
import { isWithin } from '../file-paths.js';

/** A request for a post the admin cannot serve: an invalid slug or locale, or a path that leaves content/. */
export class PostAddressError extends Error {}

/** The version of a file's bytes (also its ETag). */
export function versionOf(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('base64url').slice(0, 32);
}

/** Where a post lives, once checked. */
export interface PostAddress {
  collection: string;
  slug: string;
  locale: string;
  /** Absolute path of the file. */
  file: string;
  /** The path `site check` names it by (relative to the working directory). */
  display: string;
}

/** Checks slug and locale and resolves the post's file; throws PostAddressError. */
export async function resolvePost(
  config: ResolvedConfig,
  collection: string,
  slug: string,
  locale: string,
): Promise<PostAddress> {
  if (!entrySlugPattern.test(slug) || slug.length > 200)
    throw new PostAddressError(`"${slug}" is not a valid slug: use lowercase letters, digits and hyphens`);
  if (!config.localeIds.includes(locale))
    throw new PostAddressError(`"${locale}" is not a locale of this site (${config.localeIds.join(', ')})`);
  const sources = sourcesOf(config);
  const file = sources.entry(collection, slug, locale);
  const content = await realpath(config.dirs.content);
  // Every existing step from content/ to the file must be a real folder (or file), not a link.
  let step = file;
  while (isWithin(step, config.dirs.content) && step !== config.dirs.content) {
    const info = await lstat(step).catch(() => undefined);
    if (info?.isSymbolicLink()) throw new PostAddressError("the post's path passes through a symbolic link");
    step = dirname(step);
  }
  const existing = await realpath(dirname(file)).catch(() => realpath(dirname(dirname(file))).catch(() => undefined));
  if (!isWithin(file, config.dirs.content) || (existing && !isWithin(existing, content)))
    throw new PostAddressError("the post's path leaves the content folder");
  return { collection, slug, locale, file, display: relative(process.cwd(), file) || file };
}

/** A post file's text and version, or undefined when it does not exist. */
export async function readPostFile(file: string): Promise<{ text: string; version: string } | undefined> {
  try {
    const bytes = await readFile(file);
    return { text: bytes.toString('utf8'), version: versionOf(bytes) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Deletes a post file, and its folder when nothing else is left in it. */
export async function deletePostFile(file: string): Promise<void> {
  await rm(file);
  const rest = await readdir(dirname(file)).catch(() => ['?']);
  if (rest.length === 0) await rmdir(dirname(file)).catch(() => undefined);
}
