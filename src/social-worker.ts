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
  // The pool gives this worker many chunks at once (`PoolJob.ahead`): two are drawn at a time, as
  // when it held two, so that the cards in flight (2-4 MB of pixels each) stay few; 128 at once
  // took a cold build of the real site from 1.5 to 2.5 GB.
  let drawing = 0;
  const waiting: (() => void)[] = [];
  return async (items) => {
    if (drawing >= 2) await new Promise<void>((start) => waiting.push(start));
    drawing++;
    try {
      return await drawCards(items as SocialCard[], mark);
    } finally {
      drawing--;
      waiting.shift()?.();
    }
  };
});
