/**
 * The social image of a page (`og:image`, 1200×630): what its card shows, and the file it is
 * written to. Pure: the head names the file from the page and its meta, and the build draws the
 * cards of every page (emit/social-images.ts) from the same function, so the two always agree.
 * The file is named by the hash of what the card shows, so pages that show the same card share
 * one file and a card that changes gets a new URL (social sites cache images by URL).
 */
import { createHash } from 'node:crypto';
import type { ResolvedConfig } from '../config/load.js';
import type { Page } from '../routes/pages.js';
import type { PageMeta } from './types.js';

/** The size every social site asks for. */
export const socialImageSize = { width: 1200, height: 630 } as const;

/** Raise when the drawing of a card changes (emit/social-images.ts), so every card gets a new URL. */
export const socialCardLayout = 4;

/** What a card shows. */
export interface SocialCard {
  /** The page's title (or its meta's `card.title`). */
  title: string;
  /** The line above the title: a post's category, else the page's audience; none on other pages. */
  eyebrow?: string;
  /** The site's name, with its mark, at the top. */
  siteName: string;
  /** The site's host name, at the foot. */
  host: string;
  /** The background: the page's audience's accent, else the site's theme colour. */
  accent: string;
  /** The page's `lang`, for the text's language. */
  lang: string;
  /**
   * The page's own image (a post's), which the card then is instead, cropped to 1200×630 around
   * its focal point (the centre without one): named by the hash of its bytes and the focal point,
   * read from `path` (which is not part of the card's name).
   */
  photo?: { hash: string; path: string; alt: string; focus?: { x: number; y: number } };
}

/** The card of a page. */
export function socialCardOf(page: Page, meta: PageMeta, config: ResolvedConfig): SocialCard {
  // A duplicate (an audience's copy, an alias, an untranslated fallback) shows the card of the
  // page its canonical URL names, so social sites see one image for one page.
  const shown = page.original ?? page;
  const audience = shown.audience ? config.audiences[shown.audience] : undefined;
  const eyebrow = meta.og?.section ?? audience?.label[shown.locale];
  return {
    title: meta.card?.title ?? meta.title,
    ...(eyebrow ? { eyebrow } : {}),
    siteName: config.site.name,
    host: new URL(config.site.origin).host,
    accent: audience?.accent ?? config.site.themeColor,
    lang: config.locales[shown.locale]!.htmlLang,
    ...(meta.image
      ? {
          photo: {
            hash: meta.image.hash,
            path: meta.image.path,
            alt: meta.image.alt,
            ...(meta.image.focus ? { focus: meta.image.focus } : {}),
          },
        }
      : {}),
  };
}

/** What names a card and its cached drawing: what it shows, without where a photo is read from. */
export function socialCardKey(card: SocialCard): string {
  if (!card.photo) return JSON.stringify(card);
  const { focus } = card.photo;
  return focus ? `photo ${card.photo.hash} ${focus.x} ${focus.y}` : `photo ${card.photo.hash}`;
}

/** The output folder of the cards. */
export const socialFolder = '_social/';

/** The output file of a card ("_social/<hash>.png", or .jpg for a photo), named by what it shows. */
export function socialImageFile(card: SocialCard): string {
  const hash = createHash('sha256')
    .update(`${socialCardLayout}\n${socialCardKey(card)}`)
    .digest('base64url');
  return `${socialFolder}${hash.slice(0, 16)}.${card.photo ? 'jpg' : 'png'}`;
}
