/** The one line `site dev` prints per rebuild: what changed, what was rebuilt, how long it took (pure). */
import { relative } from 'node:path';
import type { FileChange, RebuildOutcome } from './rebuild.js';

/** "content/blog/x/en.md" or "content/blog/x/en.md and 2 more", relative to `cwd`. */
export function describeChanges(changes: readonly FileChange[], cwd: string): string {
  const paths = [...new Set(changes.map((change) => relative(cwd, change.path) || change.path))].sort();
  if (paths.length === 0) return 'first build';
  return paths.length === 1 ? paths[0]! : `${paths[0]} and ${paths.length - 1} more`;
}

/** What a rebuild did, in a few words. */
export function describeOutcome(outcome: RebuildOutcome): string {
  const reloaded = outcome.reloaded.length ? `reloaded ${outcome.reloaded.join(', ')}` : 'nothing to reload';
  if (!outcome.ok) {
    const count = outcome.errors.length + (outcome.crash === undefined ? 0 : 1);
    return `${reloaded} · ${count} ${count === 1 ? 'problem' : 'problems'}, serving the last good build · ${Math.round(outcome.ms)} ms`;
  }
  const files = outcome.changed.length + outcome.removed.length;
  const effect = outcome.stylesheet
    ? 'stylesheet swapped'
    : files
      ? `${files} ${files === 1 ? 'file' : 'files'} updated`
      : 'output unchanged';
  const later = outcome.deferred ? ` (${outcome.deferred} more when opened or idle)` : '';
  return `${reloaded} · rendered ${outcome.rendered} of ${outcome.pages} pages${later} · ${effect} · ${Math.round(outcome.ms)} ms`;
}

/** The whole line: "content/blog/x/en.md → reloaded entries · rendered 27 of 200 pages · 13 files updated · 31 ms". */
export function describeRebuild(changes: readonly FileChange[], outcome: RebuildOutcome, cwd: string): string {
  return `${describeChanges(changes, cwd)} → ${describeOutcome(outcome)}`;
}
