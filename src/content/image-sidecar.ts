/**
 * What the media library keeps about an image beside it: `<image file>.yaml` (`a1b2c3.jpg.yaml`),
 * with its text alternative per language and its focal point as fractions of its width and height:
 *
 *   alt: { en: A desk by a window, no: Et skrivebord ved et vindu }
 *   focus: { x: 0.5, y: 0.3 }
 *
 * The build reads it for every entry image (an entry's own `imageAlt` wins over its alt), and the
 * admin (src/admin/media-api.ts) writes it. A sidecar with errors is reported at its own line.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { SiteError } from '../errors.js';
import { parseYaml, validateYaml } from '../yaml-source.js';

/** A point of an image, as fractions of its width and height from its top left corner. */
export interface FocusPoint {
  x: number;
  y: number;
}

/** An image's sidecar, read; an image without one has no alt and no focus. */
export interface ImageSidecar {
  alt: Record<string, string>;
  focus: FocusPoint | null;
}

const fraction = z.number().min(0).max(1);

/** The sidecar's schema. */
export const imageSidecarSchema = z.strictObject({
  alt: z.record(z.string().regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]+)*$/, 'a language id such as en'), z.string()).default({}),
  focus: z.strictObject({ x: fraction, y: fraction }).nullable().default(null),
});

/** The sidecar file of an image file. */
export const sidecarOf = (imageFile: string) => `${imageFile}.yaml`;

/** Reads the sidecar of `imageFile`: none is an empty one; a broken one gives its errors, positioned. */
export async function readImageSidecar(imageFile: string): Promise<ImageSidecar | { errors: SiteError[] }> {
  const file = sidecarOf(imageFile);
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return { alt: {}, focus: null };
  const { source, errors } = parseYaml(text, file);
  if (errors.length) return { errors };
  const checked = validateYaml(source, imageSidecarSchema, 'IMAGE_SIDECAR');
  if (!checked.data) return { errors: checked.errors };
  const alt = Object.fromEntries(Object.entries(checked.data.alt).map(([locale, value]) => [locale, value.trim()]).filter(([, value]) => value));
  return { alt, focus: checked.data.focus };
}

/** The sidecar's text: sorted languages, empty ones left out, so a save of the same values writes the same bytes. */
export function imageSidecarText(sidecar: ImageSidecar): string {
  const quote = (value: string | number) => JSON.stringify(value);
  const alt = Object.entries(sidecar.alt).filter(([, value]) => value.trim()).sort(([a], [b]) => (a < b ? -1 : 1));
  const lines = ['alt:', ...alt.map(([locale, value]) => `  ${locale}: ${quote(value.trim())}`)];
  if (!alt.length) lines[0] = 'alt: {}';
  lines.push(sidecar.focus ? `focus: { x: ${sidecar.focus.x}, y: ${sidecar.focus.y} }` : 'focus: null');
  return `${lines.join('\n')}\n`;
}
