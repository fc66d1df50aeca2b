/**
 * "Did you mean": the known name nearest to one that is not known (a config key, a front-matter
 * field, a template, an island, a link's fragment), by edit distance, counting a swap of two
 * neighbouring letters as one edit (`pageSzie` → `pageSize`). Pure.
 */

/** The candidate with the fewest edits from `text` (the first in order of a tie), however far. */
export function nearest(text: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(text, candidate, bestDistance);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** Edits allowed for a suggestion: a third of the name, at least two (`clinet` → `client`). */
const allowedEdits = (text: string) => Math.max(2, Math.floor(text.length / 3));

/**
 * The known name `text` most likely meant, or undefined when none is close: the same name in
 * other letter case, else the nearest within a few edits.
 */
export function didYouMean(text: string, candidates: readonly string[]): string | undefined {
  const lower = text.toLowerCase();
  const sameCase = candidates.find((candidate) => candidate.toLowerCase() === lower);
  if (sameCase !== undefined) return sameCase;
  const best = nearest(
    lower,
    candidates.map((candidate) => candidate.toLowerCase()),
  );
  if (best === undefined || editDistance(lower, best) > allowedEdits(text)) return undefined;
  return candidates.find((candidate) => candidate.toLowerCase() === best);
}

/**
 * The id of a page a fragment most likely meant (`#draftz` → `#drafts-and-scheduled-posts`): an id
 * it begins (the shortest), else one that contains it, else the id whose beginning, whole or one
 * word is nearest within a few edits; undefined when none is close.
 */
export function nearestAnchor(fragment: string, ids: readonly string[]): string | undefined {
  const text = fragment.toLowerCase();
  if (text === '') return undefined;
  const shortest = (found: readonly string[]) =>
    [...found].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))[0];
  const lowered = ids.map((id) => [id, id.toLowerCase()] as const);
  const prefixed = lowered.filter(([, id]) => id.startsWith(text)).map(([id]) => id);
  if (prefixed.length) return shortest(prefixed);
  const containing = lowered.filter(([, id]) => id.includes(text)).map(([id]) => id);
  if (containing.length) return shortest(containing);
  let best: string | undefined;
  let bestDistance = allowedEdits(text) + 1;
  for (const [id, lower] of lowered) {
    const parts = [lower, lower.slice(0, text.length), ...lower.split(/[-_]/)];
    const distance = Math.min(...parts.map((part, index) => editDistance(text, part) + (index === 0 ? 0 : 1)));
    if (distance < bestDistance) [best, bestDistance] = [id, distance];
  }
  return best;
}

/**
 * Edit distance (optimal string alignment: insert, delete, replace, or swap two neighbours), given
 * up (returning `bound`) once it cannot be below `bound`.
 */
export function editDistance(a: string, b: string, bound = Infinity): number {
  if (Math.abs(a.length - b.length) >= bound) return bound;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      let cost = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cost = Math.min(cost, before[j - 2]! + 1);
      current[j] = cost;
      rowMin = Math.min(rowMin, cost);
    }
    if (rowMin >= bound) return bound;
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** " (did you mean "x"?)" for a message, or "" when nothing is close. */
export function didYouMeanText(text: string, candidates: readonly string[]): string {
  const meant = didYouMean(text, candidates);
  return meant === undefined ? '' : `: did you mean "${meant}"?`;
}
