/**
 * A worker thread that draws social images (emit/social-images.ts: drawCards), built into
 * lib/social-worker.js. It loads satori, sharp and the font as soon as it starts, and nothing of
 * the page stages, so a build that starts it early finds it ready when the first cards are known.
 */
import { cardDrawer, drawCards } from './emit/social-images.js';
import type { SocialCard } from './render/social-card.js';
import type { JobKind } from './parallel/protocol.js';
import { serveJobs } from './parallel/serve-jobs.js';

// Loaded while the main thread still reads the site; a failure is reported by the first job.
cardDrawer().catch(() => undefined);

serveJobs(async (kind: JobKind, setup: unknown) => {
  if (kind !== 'social') throw new Error(`lib/social-worker.js does not run ${kind} jobs`);
  const mark = setup as string | undefined;
  return (items) => drawCards(items as SocialCard[], mark);
});
