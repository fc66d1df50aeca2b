/**
 * The media library: every image file of every entry folder of every collection, each distinct
 * image (by the hash of its bytes) listed once, with the entries whose front matter's `image`
 * names it, its alt text per language and its focal point (its sidecar, content/image-sidecar.ts).
 * No shared folder: an entry's image stays beside it, so a build reads what it always read.
 *
 *   GET    /api/admin/media            → { images: [{ id, path, file, width, height, bytes, uses, alt, focus, version }] }
 *          (each use: { collection, slug, locale, title, imageAlt? })
 *   GET    /api/admin/media/<id>/thumbnail → a WebP 480 px wide, upright (the screens' thumbnails: an
 *          image no published entry uses has no variant on the site)
 *   POST   /api/admin/media/<id>/use   { collection, slug } → 200 { path }: the bytes (and sidecar)
 *          copied into that entry's folder under the same name; the editor then saves `image: path`
 *   PUT    /api/admin/media/<id>       { alt, focus } with If-Match: <version> → 200 { version } | 409 | 428 | 422
 *   DELETE /api/admin/media/<id>       → 200 | 409 { uses } while an entry uses it
 *
 * A sidecar is written beside every copy of the image (each entry folder stays whole, in git and
 * on its own); its version is that of the first copy's sidecar text. Role editor, audited, and
 * published to git as posts are. With `admin.review` (review.ts), an editor's save of the alt text
 * and focal point (shown wherever the image is used, now or later) is held as the sidecar's new
 * text (202 `{ pending }`) until an admin approves it at `media/reviews/<id>/approve`.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parse } from '../yaml-package.js';
import type { ResolvedConfig } from '../config/load.js';
import { collectionNamed, sourcesOf } from '../config/sources.js';
import { findFrontMatter } from '../content/front-matter.js';
import {
  imageSidecarSchema,
  imageSidecarText,
  readImageSidecar,
  sidecarOf,
  type ImageSidecar,
} from '../content/image-sidecar.js';
import type { AdminRequest, AdminRoute } from './api.js';
import { writeFileAtomic } from '../atomic-write.js';
import type { AuditLog } from './audit-log.js';
import { publishAudited } from './git-publish.js';
import { adminHeaders, sendJson } from './http.js';
import { PostAddressError, resolvePost, versionOf } from './post-files.js';
import type { SaveOutcome } from './posts-api.js';
import { ifMatch } from './settings-api.js';
import { answerStale, holdChange, mediaScope, mustHold, reviewRoutes, type Review } from './review.js';
import { fileDiff } from './text-diff.js';
import { serialiseWrites } from './write-queue.js';

/** An entry that shows an image. */
export interface ImageUse {
  collection: string;
  slug: string;
  locale: string;
  title: string;
  /** The entry's own `imageAlt`, when it has one (it wins over the sidecar's in the build). */
  imageAlt?: string;
}

/** One image of the library. */
export interface LibraryImage {
  /** The first 16 hex digits of the SHA-256 of its bytes (as the build names its variants). */
  id: string;
  /** Its first copy, as `site check` names files. */
  path: string;
  /** Its file name (the front matter's `image`). */
  file: string;
  width: number;
  height: number;
  bytes: number;
  uses: ImageUse[];
  alt: Record<string, string>;
  focus: { x: number; y: number } | null;
  /** The version of its sidecar (If-Match of a save). */
  version: string;
  /** Every copy, absolute (not answered). */
  copies: string[];
}

/** Options of the library's routes. */
export interface MediaLibraryOptions {
  config(): ResolvedConfig | undefined;
  audit: AuditLog;
  /** After files were written (serve: rebuild and publish; dev leaves it to the watcher). */
  afterWrite?(files: readonly string[]): Promise<SaveOutcome>;
  /** Where editors' saves wait for an admin when `admin.review` is on (review.ts). */
  review?: Review;
}

const imageFile = /^[\w.-]+\.(?:png|jpe?g|webp|avif)$/i;
/** The width of the screens' thumbnails (two columns on a phone, at 2× density). */
const thumbnailWidth = 480;

/** What is known of an image file by its path, kept while its size and modification time stay. */
interface FileFacts {
  stamp: string;
  id: string;
  width: number;
  height: number;
  bytes: number;
}
const known = new Map<string, FileFacts>();

/** The hash and upright size of an image file, read again only when the file changed. */
async function factsOf(file: string): Promise<FileFacts> {
  const info = await stat(file);
  const stamp = `${info.size} ${info.mtimeMs}`;
  const cached = known.get(file);
  if (cached?.stamp === stamp) return cached;
  const bytes = await readFile(file);
  const { default: sharp } = await import('sharp');
  const size = await sharp(bytes)
    .metadata()
    .catch(() => undefined);
  const upright = (size?.orientation ?? 1) < 5;
  const facts = {
    stamp,
    id: createHash('sha256').update(bytes).digest('hex').slice(0, 16),
    width: (upright ? size?.width : size?.height) ?? 0,
    height: (upright ? size?.height : size?.width) ?? 0,
    bytes: bytes.length,
  };
  known.set(file, facts);
  return facts;
}

/**
 * Reads the library: every image of every entry folder (regular files only: a symbolic link could
 * lead anywhere), by its content hash, in the order of collection, entry and file name.
 */
export async function readLibrary(config: ResolvedConfig): Promise<LibraryImage[]> {
  const sources = sourcesOf(config);
  const byId = new Map<string, LibraryImage>();
  for (const collection of Object.keys(config.collections).sort()) {
    const folder = sources.collection(collection);
    const slugs = (await readdir(folder, { withFileTypes: true }).catch(() => []))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    for (const slug of slugs) {
      const entries = await readdir(join(folder, slug), { withFileTypes: true }).catch(() => []);
      const names = entries
        .filter((entry) => entry.isFile())
        .map((entry) => entry.name)
        .sort();
      const uses = await usesIn(join(folder, slug), names, collection, slug);
      for (const name of names.filter((candidate) => imageFile.test(candidate))) {
        const file = join(folder, slug, name);
        const facts = await factsOf(file);
        const used = uses.filter((use) => use.image === name).map(({ image: _image, ...use }) => use);
        const seen = byId.get(facts.id);
        if (seen) {
          seen.copies.push(file);
          seen.uses.push(...used);
          continue;
        }
        const sidecar = await readImageSidecar(file);
        const found: ImageSidecar = 'errors' in sidecar ? { alt: {}, focus: null } : sidecar;
        const text = await readFile(sidecarOf(file), 'utf8').catch(() => '');
        byId.set(facts.id, {
          id: facts.id,
          path: sources.display(file),
          file: name,
          width: facts.width,
          height: facts.height,
          bytes: facts.bytes,
          uses: used,
          alt: found.alt,
          focus: found.focus,
          version: versionOf(text),
          copies: [file],
        });
      }
    }
  }
  return [...byId.values()];
}

/** The entries of one folder (its `<locale>.md` files) with the image their front matter names. */
async function usesIn(
  folder: string,
  names: readonly string[],
  collection: string,
  slug: string,
): Promise<(ImageUse & { image: string })[]> {
  const uses: (ImageUse & { image: string })[] = [];
  for (const name of names.filter((candidate) => /^[a-z]{2,3}(?:-[A-Za-z0-9]+)*\.md$/.test(candidate))) {
    const front = findFrontMatter(await readFile(join(folder, name), 'utf8').catch(() => ''));
    let data: unknown;
    try {
      data = front ? parse(front.yaml) : undefined;
    } catch {
      continue;
    }
    const { image, title, imageAlt } = (data ?? {}) as { image?: unknown; title?: unknown; imageAlt?: unknown };
    if (typeof image !== 'string') continue;
    uses.push({
      collection,
      slug,
      locale: basename(name, '.md'),
      title: typeof title === 'string' ? title : slug,
      image,
      ...(typeof imageAlt === 'string' && imageAlt.trim() ? { imageAlt: imageAlt.trim() } : {}),
    });
  }
  return uses;
}

/** The library's routes. */
export function createMediaLibraryRoutes(options: MediaLibraryOptions): AdminRoute[] {
  // A copy, a save and a delete all read the whole library: every collection's folder is theirs
  // until they are done, so no entry and no image changes under them.
  const libraryFolders = (config: ResolvedConfig) =>
    Object.keys(config.collections).map((collection) => sourcesOf(config).collection(collection));

  /** The config, or undefined after answering 503. */
  const ready = (context: AdminRequest) => {
    const config = options.config();
    if (!config) sendJson(context.response, 503, { error: 'not_ready', message: 'the site has not been built yet' });
    return config;
  };
  /** The image `id`, or undefined after answering 404. */
  const find = async (context: AdminRequest, config: ResolvedConfig) => {
    const image = (await readLibrary(config)).find((candidate) => candidate.id === context.params[0]);
    if (!image)
      sendJson(context.response, 404, {
        error: 'not_found',
        message: `there is no image ${context.params[0]} in the library`,
      });
    return image;
  };
  const answerOf = ({ copies: _copies, ...image }: LibraryImage) => image;
  /** Rebuilds (serve), audits and publishes a change of `files`. */
  const done = async (
    context: AdminRequest,
    config: ResolvedConfig,
    files: string[],
    audit: { action: string } & Record<string, unknown>,
    message: string,
  ) => {
    const outcome = options.afterWrite ? await options.afterWrite(files) : { rebuilt: false };
    await options.audit.append({ user: context.session.email, ...audit });
    const git = await publishAudited(options.audit, context.session.email, config, files, message);
    return { ...outcome, ...(git ? { git } : {}) };
  };

  const list: AdminRoute = {
    method: 'GET',
    pattern: /^media$/,
    role: 'editor',
    async handle(context) {
      const config = ready(context);
      if (config) sendJson(context.response, 200, { images: (await readLibrary(config)).map(answerOf) });
    },
  };

  const thumbnail: AdminRoute = {
    method: 'GET',
    pattern: /^media\/([0-9a-f]{16})\/thumbnail$/,
    role: 'editor',
    async handle(context) {
      const config = ready(context);
      const image = config && (await find(context, config));
      if (!image) return;
      const { default: sharp } = await import('sharp');
      const bytes = await sharp(await readFile(image.copies[0]!))
        .rotate()
        .resize({ width: thumbnailWidth, withoutEnlargement: true })
        .webp()
        .toBuffer();
      context.response.writeHead(200, {
        ...adminHeaders,
        'content-type': 'image/webp',
        'content-length': String(bytes.length),
      });
      context.response.end(bytes);
    },
  };

  const use: AdminRoute = {
    method: 'POST',
    pattern: /^media\/([0-9a-f]{16})\/use$/,
    role: 'editor',
    async handle(context) {
      const config = ready(context);
      if (!config) return;
      const body = await context.body();
      const collection = typeof body.collection === 'string' ? body.collection : '';
      const slug = typeof body.slug === 'string' ? body.slug : '';
      if (!collectionNamed(config, collection))
        return sendJson(context.response, 400, {
          error: 'invalid_body',
          message: `send { collection, slug }: "${collection}" is not a collection of this site`,
        });
      let folder: string;
      try {
        folder = join(sourcesOf(config).collection(collection), slug);
        await resolvePost(config, collection, slug, config.site.defaultLocale);
      } catch (error) {
        if (error instanceof PostAddressError)
          return sendJson(context.response, 400, { error: 'invalid_post', message: error.message });
        throw error;
      }
      await serialiseWrites(libraryFolders(config), async () => {
        const names = await readdir(folder).catch(() => [] as string[]);
        if (!names.some((name) => name.endsWith('.md')))
          return sendJson(context.response, 404, {
            error: 'not_found',
            message: `there is no entry "${slug}": save it before giving it an image`,
          });
        const image = await find(context, config);
        if (!image) return;
        const target = join(folder, image.file);
        if (image.copies.includes(target)) return sendJson(context.response, 200, { path: image.file });
        if (names.includes(image.file))
          return sendJson(context.response, 409, {
            error: 'name_taken',
            message: `the entry's folder has another file named ${image.file}`,
          });
        const written = [target];
        await writeFileAtomic(target, await readFile(image.copies[0]!));
        const sidecar = await readFile(sidecarOf(image.copies[0]!)).catch(() => undefined);
        if (sidecar) {
          await writeFileAtomic(sidecarOf(target), sidecar);
          written.push(sidecarOf(target));
        }
        const outcome = await done(
          context,
          config,
          written,
          { action: 'media-use', collection, slug, image: image.file },
          `content(${collection}): add image ${image.file} to ${slug}`,
        );
        sendJson(context.response, 200, { path: image.file, ...outcome });
      });
    },
  };

  const update: AdminRoute = {
    method: 'PUT',
    pattern: /^media\/([0-9a-f]{16})$/,
    role: 'editor',
    async handle(context) {
      const expected = ifMatch(context);
      if (!expected)
        return sendJson(context.response, 428, {
          error: 'if_match_required',
          message: 'send the version you are editing in If-Match',
        });
      const config = ready(context);
      if (!config) return;
      await serialiseWrites(libraryFolders(config), async () => {
        const image = await find(context, config);
        if (!image) return;
        if (image.version !== expected)
          return sendJson(
            context.response,
            409,
            { error: 'stale', version: image.version },
            { etag: `"${image.version}"` },
          );
        const body = await context.body();
        const checked = imageSidecarSchema.safeParse({ alt: body.alt ?? {}, focus: body.focus ?? null });
        const unknown = Object.keys(checked.success ? checked.data.alt : {}).filter(
          (locale) => !config.localeIds.includes(locale),
        );
        if (!checked.success || unknown.length) {
          const errors = checked.success
            ? unknown.map((locale) => ({ path: `alt.${locale}`, message: `${locale} is not a language of this site` }))
            : checked.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
          return sendJson(context.response, 422, { errors });
        }
        const text = imageSidecarText(checked.data);
        if (options.review && mustHold(config, context, true))
          return holdChange(
            options.review,
            context,
            { collection: mediaScope, slug: image.id, locale: '', base: image.version },
            text,
          );
        await writeSidecars(context, config, image, checked.data);
      });
    },
  };

  /** Writes an image's sidecar beside every copy; rebuilds, audits, publishes and answers 200 `{ version }`. */
  async function writeSidecars(
    context: AdminRequest,
    config: ResolvedConfig,
    image: LibraryImage,
    sidecar: ImageSidecar,
    detail: Record<string, unknown> = {},
  ) {
    const text = imageSidecarText(sidecar);
    for (const copy of image.copies) await writeFileAtomic(sidecarOf(copy), text);
    const version = versionOf(text);
    const outcome = await done(
      context,
      config,
      image.copies.map(sidecarOf),
      {
        action: 'media-update',
        image: image.file,
        locales: Object.keys(sidecar.alt).sort(),
        focus: sidecar.focus,
        ...detail,
      },
      `content(media): update ${image.file}`,
    );
    sendJson(context.response, 200, { version, ...outcome }, { etag: `"${version}"` });
  }

  /** An editor's held sidecar (review.ts): approved, it is written as the admin's save writes one, unless the sidecar changed since. */
  const reviews =
    options.review &&
    reviewRoutes({
      review: options.review,
      audit: options.audit,
      scope: mediaScope,
      prefix: 'media/',
      async view(change) {
        const config = options.config();
        const image = config && (await readLibrary(config)).find((candidate) => candidate.id === change.slug);
        const now = image ? await readFile(sidecarOf(image.copies[0]!), 'utf8').catch(() => '') : '';
        return {
          kind: 'save',
          name: image?.file ?? change.slug,
          stale: image?.version !== change.base,
          diff: fileDiff(image ? `${image.path}.yaml` : change.slug, now, change.text, ['published', 'pending'], 4),
        };
      },
      async apply(context, change) {
        const config = ready(context);
        if (!config) return false;
        await serialiseWrites(libraryFolders(config), async () => {
          const image = (await readLibrary(config)).find((candidate) => candidate.id === change.slug);
          if (!image || image.version !== change.base) return answerStale(context, 'image');
          // The text the editor's save made (imageSidecarText), read back as that save's data.
          const held = imageSidecarSchema.safeParse(parse(change.text));
          if (!held.success)
            return sendJson(context.response, 422, {
              errors: held.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
            });
          await writeSidecars(context, config, image, held.data, { review: change.id });
        });
        return context.response.statusCode === 200;
      },
      async auditOf(change) {
        const config = options.config();
        const image = config && (await readLibrary(config)).find((candidate) => candidate.id === change.slug);
        return { image: image?.file ?? change.slug };
      },
    });

  const remove: AdminRoute = {
    method: 'DELETE',
    pattern: /^media\/([0-9a-f]{16})$/,
    role: 'editor',
    async handle(context) {
      const config = ready(context);
      if (!config) return;
      await serialiseWrites(libraryFolders(config), async () => {
        const image = await find(context, config);
        if (!image) return;
        if (image.uses.length)
          return sendJson(context.response, 409, {
            error: 'in_use',
            message: 'the image is still used: give those entries another image first',
            uses: image.uses,
          });
        const files = image.copies.flatMap((copy) => [copy, sidecarOf(copy)]);
        for (const file of files) {
          await rm(file, { force: true });
          known.delete(file);
        }
        const outcome = await done(
          context,
          config,
          files,
          { action: 'media-delete', image: image.file, copies: image.copies.length },
          `content(media): delete ${image.file}`,
        );
        sendJson(context.response, 200, { deleted: image.id, ...outcome });
      });
    },
  };

  return [list, thumbnail, use, update, remove, ...(reviews ?? [])];
}
