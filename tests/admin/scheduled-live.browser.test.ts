/**
 * Scheduled posts go live by themselves: `site serve --admin` sets one timer for the instant the
 * next scheduled post appears (00:00 of its date in site.timeZone, across a summer-time change in
 * Europe/Oslo) and rebuilds then, without a save or a restart; a rebuild that fails keeps the
 * served site. The clock is a fake one the test moves on: nothing waits a day. `site build`
 * names the next scheduled post, and the admin's API says when each appears.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiveSite, type LiveSite } from '../../src/admin/live-site';
import { createScheduleTimer, longestTimerMs, type Clock } from '../../src/admin/schedule-timer';
import type { SaveOutcome } from '../../src/admin/posts-api';
import { build, type Logger } from '../../src/api';
import { buildSite } from '../../src/build';
import { appearsAt, type ScheduledTranslation } from '../../src/content/schedule';
import { writeSite } from '../../src/emit/write';
import { startAdminServer, startLiveAdmin } from '../helpers/admin-server';
import { launchBrowser } from '../helpers/browser';
import { axeViolations } from '../helpers/axe';
import { createTempSite, type TempSite } from '../helpers/fixture-site';

const post = (title: string, date: string) =>
  `---\ntitle: ${title}\ndescription: It appears on its day.\ndate: ${date}\ncategory: saas\nauthor: Test Author\n---\n\nComing soon.\n`;
/** The config with site.timeZone Europe/Oslo, whatever the site's own says. */
const inOslo = (text: string) =>
  text
    .replace(/^(site:\n(?: {2}.*\n)*?) {2}timeZone: .*\n/m, '$1')
    .replace(/^site:\n/m, 'site:\n  timeZone: Europe/Oslo\n');

/** A clock whose time the test sets, and whose one timer the test fires. */
function fakeClock(start: number) {
  let now = start;
  let pending: { callback: () => void; ms: number } | undefined;
  const clock: Clock = {
    now: () => now,
    setTimer(callback, ms) {
      pending = { callback, ms };
      return pending;
    },
    clearTimer(timer) {
      if (pending === timer) pending = undefined;
    },
  };
  return {
    clock,
    get timer() {
      return pending;
    },
    /** Moves the time on to the timer's instant and fires it. */
    fire() {
      const due = pending!;
      pending = undefined;
      now += due.ms;
      due.callback();
    },
  };
}

async function addPost(site: TempSite, slug: string, title: string, date: string) {
  await mkdir(join(site.dir, 'content', 'blog', slug), { recursive: true });
  await writeFile(join(site.dir, 'content', 'blog', slug, 'en.md'), post(title, date));
}

describe('the day a scheduled post appears', () => {
  it("is 00:00 of its date in the site's time zone, on either side of a summer-time change", () => {
    // Oslo moves to summer time at 01:00 UTC on Sunday 31 March 2030.
    expect(new Date(appearsAt('2030-03-31', 'Europe/Oslo')).toISOString()).toBe('2030-03-30T23:00:00.000Z');
    expect(new Date(appearsAt('2030-04-01', 'Europe/Oslo')).toISOString()).toBe('2030-03-31T22:00:00.000Z');
    expect(new Date(appearsAt('2030-10-28', 'Europe/Oslo')).toISOString()).toBe('2030-10-27T23:00:00.000Z');
    expect(new Date(appearsAt('2030-04-01', 'UTC')).toISOString()).toBe('2030-04-01T00:00:00.000Z');
    // Where the clocks skip midnight (Santiago, 7 September 2030), the day starts at 01:00.
    expect(new Date(appearsAt('2030-09-08', 'America/Santiago')).toISOString()).toBe('2030-09-08T04:00:00.000Z');
  });
});

describe('site serve --admin: scheduled posts go live by themselves', () => {
  let site: TempSite;
  let dist: string;
  let live: LiveSite;
  const time = fakeClock(Date.UTC(2030, 2, 30, 12));
  const rebuilds: { appearing: ScheduledTranslation[]; outcome: SaveOutcome; done: () => void }[] = [];
  let rebuilt: Promise<void> = Promise.resolve();
  const nextRebuild = () =>
    (rebuilt = new Promise((resolve) => rebuilds.push({ appearing: [], outcome: { rebuilt: false }, done: resolve })));

  beforeAll(async () => {
    site = await createTempSite({ editConfig: inOslo });
    await addPost(site, 'before-summer-time', 'Before summer time', '2030-03-31');
    await addPost(site, 'after-summer-time', 'After summer time', '2030-04-01');
    dist = join(site.dir, 'dist');
    await writeSite(dist, (await buildSite({ config: site.config, today: () => '2030-03-30', workers: 0 })).files);
    live = createLiveSite({
      config: site.config,
      dir: dist,
      clock: time.clock,
      scheduledRebuild(appearing, outcome) {
        const waiting = rebuilds.find((entry) => entry.appearing.length === 0 && entry.outcome.rebuilt === false)!;
        Object.assign(waiting, { appearing, outcome });
        waiting.done();
      },
    });
    await live.start();
  }, 120_000);
  afterAll(async () => {
    await live?.dispose();
    await site?.cleanup();
  });

  const served = (path: string) => readFile(join(dist, path), 'utf8').catch(() => undefined);

  it("sets one timer for 00:00 in Oslo of the first post's day, and shows the post when it fires", async () => {
    expect(await served('blog/before-summer-time/index.html')).toBeUndefined();
    // 12:00 UTC on the 30th to 00:00 CET on the 31st (23:00 UTC).
    expect(time.timer?.ms).toBe(11 * 3600_000);
    nextRebuild();
    time.fire();
    await rebuilt;
    expect(rebuilds[0]!.appearing.map((item) => item.slug)).toEqual(['before-summer-time']);
    expect(rebuilds[0]!.outcome).toMatchObject({ rebuilt: true, ok: true });
    expect(await served('blog/before-summer-time/index.html')).toContain('Before summer time');
    expect(await served('blog/index.html')).toContain('Before summer time');
    expect(await served('blog/index.html')).not.toContain('After summer time');
    expect(await served('sitemap.xml')).toContain('before-summer-time');
  }, 120_000);

  it('sets the next timer from that rebuild: a day of 23 hours later, across the change to summer time', async () => {
    expect(time.timer?.ms).toBe(23 * 3600_000);
    nextRebuild();
    time.fire();
    await rebuilt;
    expect(rebuilds[1]!.appearing.map((item) => item.slug)).toEqual(['after-summer-time']);
    expect(await served('blog/after-summer-time/index.html')).toContain('After summer time');
    // Nothing is scheduled any more: no timer.
    expect(time.timer).toBeUndefined();
  }, 120_000);

  it('waits in steps of at most 24.8 days for a post months away, and a save sets the timer again', async () => {
    await addPost(site, 'next-autumn', 'Next autumn', '2030-10-01');
    const saved = await live.rebuild(join(site.dir, 'content', 'blog', 'next-autumn', 'en.md'));
    expect(saved).toMatchObject({ rebuilt: true, ok: true });
    expect(await served('blog/next-autumn/index.html')).toBeUndefined();
    expect(time.timer?.ms).toBe(longestTimerMs);
    time.fire();
    // Woken by the cap, not by the day: no rebuild, the timer waits for the rest.
    expect(rebuilds).toHaveLength(2);
    expect(time.timer!.ms).toBe(longestTimerMs);
  }, 120_000);

  it('clears the timer when the site stops', async () => {
    expect(time.timer).toBeDefined();
    await live.dispose();
    expect(time.timer).toBeUndefined();
  });
});

describe('the schedule timer', () => {
  const post = (slug: string, date: string): ScheduledTranslation => ({
    collection: 'blog',
    slug,
    locale: 'en',
    title: slug,
    date,
    file: `${slug}/en.md`,
  });

  it('after a rebuild that fails leaves that post to the next save, and waits for the later ones', async () => {
    const time = fakeClock(Date.UTC(2030, 0, 1, 12));
    const calls: string[][] = [];
    const scheduled = [post('first', '2030-01-02'), post('second', '2030-01-05')];
    let failed!: () => void;
    const settled = new Promise<void>((resolve) => (failed = resolve));
    const timer = createScheduleTimer(time.clock, {
      schedule: () => ({ scheduled, timeZone: 'UTC' }),
      async due(appearing) {
        calls.push(appearing.map((item) => item.slug));
        setTimeout(failed, 0);
        return false;
      },
    });
    timer.arm();
    expect(time.timer?.ms).toBe(12 * 3600_000);
    time.fire();
    await settled;
    expect(calls).toEqual([['first']]);
    // Not again at once for the same day: the timer is set for the second post's day.
    expect(time.timer?.ms).toBe(3 * 24 * 3600_000);
    await timer.close();
    expect(time.timer).toBeUndefined();
  });
});

describe('site build names the next scheduled post', () => {
  let site: TempSite;
  beforeAll(async () => {
    site = await createTempSite({ editConfig: inOslo });
  });
  afterAll(() => site?.cleanup());

  const lines = () => {
    const info: string[] = [];
    const logger: Logger = {
      result() {},
      info: (message) => info.push(message),
      warn() {},
      diagnostics() {},
      failed() {},
    };
    return { info, logger };
  };

  it("prints nothing when no post is scheduled, then the first to appear with its time in the site's zone", async () => {
    const none = lines();
    await build({ config: site.config, out: join(site.dir, 'dist'), logger: none.logger, workers: 0 });
    expect(none.info.filter((line) => line.includes('scheduled'))).toEqual([]);

    await addPost(site, 'in-summer', 'In summer', '2099-07-01');
    await addPost(site, 'in-winter', 'In winter', '2099-01-15');
    const some = lines();
    await build({ config: site.config, out: join(site.dir, 'dist'), logger: some.logger, workers: 0 });
    expect(some.info.filter((line) => line.includes('scheduled'))).toEqual([
      'next scheduled post: "In winter" (blog/in-winter, en) appears 2099-01-15 00:00 Europe/Oslo (+01:00) (1 more after it)',
    ]);

    const future = lines();
    await build({ config: site.config, out: join(site.dir, 'dist'), logger: future.logger, workers: 0, future: true });
    expect(future.info.filter((line) => line.includes('scheduled'))).toEqual([]);
  }, 180_000);
});

describe('the admin says when a scheduled post appears', () => {
  const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
  let site: TempSite;
  let live: LiveSite;
  let server: Awaited<ReturnType<typeof startAdminServer>>;
  beforeAll(async () => {
    site = await createTempSite({ editConfig: inOslo });
    await addPost(site, 'in-summer', 'In summer', '2099-07-01');
    ({ live, server } = await startLiveAdmin(site, [editor], { build: { workers: 0, socialImages: true } }));
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await live?.dispose();
    await site?.cleanup();
  });

  it("lists and reads it with scheduled: { at } in the site's time zone; a published post has none", async () => {
    const auth = await server.signIn(editor.email, editor.password);
    const posts = (await server.send('GET', '/api/admin/posts', { headers: { cookie: auth.cookie } })).json() as {
      slug: string;
      translations: Record<string, { status: string; scheduled?: unknown }>;
    }[];
    const scheduled = posts.find((item) => item.slug === 'in-summer')!.translations.en!;
    expect(scheduled).toMatchObject({
      status: 'scheduled',
      scheduled: { at: '2099-07-01T00:00:00+02:00', timeZone: 'Europe/Oslo' },
    });
    const published = posts.find((item) => item.translations.en?.status === 'published')!.translations.en!;
    expect(published.scheduled).toBeUndefined();
    const read = (
      await server.send('GET', '/api/admin/posts/in-summer/en', { headers: { cookie: auth.cookie } })
    ).json();
    expect(read.scheduled).toEqual({ at: '2099-07-01T00:00:00+02:00', timeZone: 'Europe/Oslo' });
  }, 60_000);

  it("shows in Chromium, in the post list and under the editor's date, when it appears", async () => {
    const browser = await launchBrowser();
    try {
      // bypassCSP lets axe's script in; the page's own CSP is the site's.
      const page = await (await browser.newContext({ locale: 'en-US', bypassCSP: true })).newPage();
      await page.goto(`${server.url}/admin/blog/`);
      await page.waitForURL(/\/auth\/$/);
      await page.getByLabel('E-mail address').fill(editor.email);
      await page.getByLabel('Password').fill(editor.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/admin\/blog\/$/);
      // 00:00 in Oslo on 1 July 2099, written as the admin's locale (intl: en-GB) writes a date and time.
      const appears = /^Appears on 1 July 2099 at 00:00 \(Europe\/Oslo\)$/;
      const row = page.getByRole('row').filter({ hasText: 'in-summer' });
      await expect.poll(() => row.getByText(appears).count()).toBe(1);
      expect(await page.getByText(/^Appears on/).count()).toBe(1);
      await row.getByRole('button', { name: 'Edit: In summer' }).click();
      await page.getByLabel('Publication date *').waitFor();
      await expect.poll(() => page.locator('.field-date').getByText(appears).count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
