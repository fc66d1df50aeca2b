/** What the blog covers share (templates/illustrations/BlogCover.tsx): their size, colours, and the numbers that lay one out from its slug. */
import type { ReactNode } from 'react';

/** A cover's size in user units. */
export const width = 320;
export const height = 180;

/** A cover's colours: background, soft shape, strong shape. */
export interface Palette {
  ground: string;
  soft: string;
  strong: string;
}

/** A drawing on a cover, laid out from the slug's numbers. */
export type Motif = (random: () => number, colours: Palette) => ReactNode;

/** Numbers in [0, 1) from a seed (mulberry32), the seed from the slug (FNV-1a). */
export function randomOf(slug: string): () => number {
  let seed = 2166136261;
  for (const char of slug) seed = Math.imul(seed ^ char.charCodeAt(0), 16777619) >>> 0;
  return () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Between `low` and `high`, rounded to one decimal so the markup stays short and stable. */
export const between = (random: () => number, low: number, high: number) =>
  Math.round((low + random() * (high - low)) * 10) / 10;
