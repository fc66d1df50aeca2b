/**
 * "Did you mean": the known name nearest to one that is not known (an island, a link's fragment),
 * by edit distance. Pure.
 */

/** The candidate with the fewest edits from `text` (the first in order of a tie). */
export function nearest(text: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(text, candidate, bestDistance);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** Levenshtein distance, given up (returning `bound`) once it cannot be below `bound`. */
export function editDistance(a: string, b: string, bound = Infinity): number {
  if (Math.abs(a.length - b.length) >= bound) return bound;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      rowMin = Math.min(rowMin, current[j]!);
    }
    if (rowMin >= bound) return bound;
    previous = current;
  }
  return previous[b.length]!;
}
