/**
 * The ASCII spellings of paths with other letters ("/no/arbeidsklær" is typed "/no/arbeidsklaer"),
 * and the alias paths they stand for: `site serve` and `site dev` redirect them when no file
 * answers, as the host targets do with their redirect files (targets/shared.ts asciiRedirects).
 */
import type { ResolvedConfig } from '../config/load.js';
import { urlsOf } from './urls.js';

const letters: Record<string, [plain: string, doubled: string]> = {
  æ: ['ae', 'ae'],
  ø: ['o', 'oe'],
  å: ['a', 'aa'],
  ß: ['ss', 'ss'],
  œ: ['oe', 'oe'],
  þ: ['th', 'th'],
  ð: ['d', 'd'],
  ł: ['l', 'l'],
};

/**
 * The ASCII spellings of a path with other letters: "/arbeidsklær" → ["/arbeidsklaer"];
 * ø and å give both the plain and the doubled spelling ("o"/"oe", "a"/"aa").
 */
export function asciiSpellings(path: string): string[] {
  if (/^[\x20-\x7e]*$/.test(path)) return [];
  const spell = (variant: 0 | 1) =>
    [...path].map((char) => letters[char]?.[variant] ?? char.normalize('NFD').replace(/[\u0300-\u036f]/g, '')).join('');
  return [...new Set([spell(0), spell(1)])].filter((spelling) => /^[\x20-\x7e]+$/.test(spelling) && spelling !== path);
}

/**
 * The path an ASCII spelling of an alias path stands for ("/no/arbeidsklaer/product" →
 * "/no/arbeidsklær/product"), or undefined: what `site serve` and `site dev` redirect when no file
 * answers, as the host targets do with `asciiRedirects`.
 */
export function asciiAliasPaths(config: ResolvedConfig): (pagePath: string) => string | undefined {
  const urls = urlsOf(config);
  const targets = new Map<string, string>();
  for (const alias of config.aliases) {
    const target = urls.pagePath(alias.to, alias.locale);
    for (const from of asciiSpellings(target)) targets.set(from, target);
  }
  return (pagePath) => {
    for (const [from, target] of targets) {
      if (pagePath === from || pagePath.startsWith(`${from}/`)) return target + pagePath.slice(from.length);
    }
    return undefined;
  };
}
