/**
 * `POST /api/admin/media?post=<slug>`: an image for a post, sent as its raw bytes with its
 * `Content-Type`. The type is checked from the bytes, which must agree with the declared one
 * (PNG, JPEG, WebP or AVIF; never SVG, which can carry script), at most 5 MB (413). It is stored
 * in the post's folder under a name made of the hash of its bytes (an upload of the same image is
 * the same file), written atomically, and answered 201 `{ path, width, height }`: `path` is the
 * value for the front matter's `image`. The post must exist (a folder with only an image would not
 * build). Audited with the post, the file and its size.
 */
import { createHash } from 'node:crypto';
import { access, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ResolvedConfig } from '../config/load.js';
import { imageMediaTypes, maxImageBytes, sniffImageType, type ImageType } from '../content/images.js';
import { BodyTooLarge, contentType, readBody } from '../serve/request.js';
import type { AdminRoute } from './api.js';
import { writeFileAtomic } from '../atomic-write.js';
import type { AuditLog } from './audit-log.js';
import { adminHeaders, sendJson } from './http.js';
import { createMediaLibraryRoutes, type MediaLibraryOptions } from './media-library.js';
import { PostAddressError, resolvePost } from './post-files.js';
import { serialiseWrites } from './write-queue.js';

/** Options of `createMediaRoutes`. */
export interface MediaRoutesOptions extends MediaLibraryOptions {
  /** The site's config; undefined while there is none (dev, before the first build). */
  config(): ResolvedConfig | undefined;
  audit: AuditLog;
  /** The collection whose entries take images (default blog). */
  collection?: string;
}

const extensions: Record<ImageType, string> = { png: 'png', jpeg: 'jpg', webp: 'webp', avif: 'avif' };
const typeOf = new Map<string, ImageType>(
  Object.entries(imageMediaTypes).map(([type, media]) => [media, type as ImageType]),
);

/** Whether an entry's folder holds a post (a folder with only an image would not build). */
async function holdsPost(folder: string): Promise<boolean> {
  return (await readdir(folder).catch(() => [] as string[])).some((name) => name.endsWith('.md'));
}

/** Creates the upload route (role editor: whoever may edit posts may give them images) and the library's (media-library.ts). */
export function createMediaRoutes(options: MediaRoutesOptions): AdminRoute[] {
  const collection = options.collection ?? 'blog';
  const upload: AdminRoute = {
    method: 'POST',
    pattern: /^media$/,
    role: 'editor',
    async handle({ request, response, session }) {
      const config = options.config();
      if (!config)
        return sendJson(response, 503, {
          error: 'no_config',
          message: 'the site has not built yet: fix the errors site dev shows',
        });
      const slug = new URL(request.url ?? '/', 'http://admin').searchParams.get('post') ?? '';
      let folder: string;
      try {
        folder = dirname((await resolvePost(config, collection, slug, config.site.defaultLocale)).file);
      } catch (error) {
        if (error instanceof PostAddressError)
          return sendJson(response, 400, { error: 'invalid_post', message: error.message });
        throw error;
      }
      const noPost = () =>
        sendJson(response, 404, {
          error: 'not_found',
          message: `there is no post "${slug}": save the post before adding its image`,
        });
      if (!(await holdsPost(folder))) return noPost();
      const declared = typeOf.get(contentType(request).type);
      if (!declared)
        return sendJson(response, 415, {
          error: 'unsupported_media_type',
          message: 'send a PNG, JPEG, WebP or AVIF image (SVG is not accepted: it can carry script)',
        });
      let bytes: Buffer;
      try {
        bytes = await readBody(request, response, maxImageBytes, adminHeaders);
      } catch (error) {
        // readBody has answered 413 (with maxBytes) and closes the connection.
        if (error instanceof BodyTooLarge) return;
        throw error;
      }
      if (sniffImageType(bytes) !== declared)
        return sendJson(response, 415, {
          error: 'unsupported_media_type',
          message: `the file is not the ${imageMediaTypes[declared]} image it says it is`,
        });
      const { default: sharp } = await import('sharp');
      const size = await sharp(bytes)
        .metadata()
        .catch(() => undefined);
      if (!size?.width || !size.height)
        return sendJson(response, 415, {
          error: 'unsupported_media_type',
          message: 'the image could not be read: export it again',
        });
      const name = `${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.${extensions[declared]}`;
      const file = join(folder, name);
      // The folder is held while it is checked again and written: a rename may have moved it since.
      const written = await serialiseWrites(folder, async () => {
        if (!(await holdsPost(folder))) return false;
        if (
          !(await access(file).then(
            () => true,
            () => false,
          ))
        )
          await writeFileAtomic(file, bytes);
        return true;
      });
      if (!written) return noPost();
      await options.audit.append({
        user: session.email,
        action: 'media-upload',
        slug,
        file: name,
        bytes: bytes.length,
      });
      const upright = (size.orientation ?? 1) < 5;
      sendJson(response, 201, {
        path: name,
        width: upright ? size.width : size.height,
        height: upright ? size.height : size.width,
      });
    },
  };
  return [upload, ...createMediaLibraryRoutes(options)];
}
