/** Where the main calls to action lead, as built: "Start for free" and its sign-up override. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildInto } from '../helpers/build';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { builtSite, repoRoot } from '../helpers/paths';

const read = (dir: string, path: string) => readFile(join(dir, path), 'utf8');
const messages = async (locale: string) =>
  parse(await readFile(join(repoRoot, 'content', 'messages', `${locale}.yaml`), 'utf8')) as {
    pricing: Record<string, string>;
  };

/** The links of the plan cards: [href, label] per plan, in order. */
function planButtons(html: string): [string, string][] {
  const plans = html.slice(html.indexOf('<ul class="plans'));
  return [
    ...plans.matchAll(
      /<li class="plan(?: is-highlighted)?">[\s\S]*?<a class="button[^"]*" href="([^"]*)"[^>]*>([^<]*)<\/a>/g,
    ),
  ].map((match) => [match[1]!.replace(/&amp;/g, '&'), match[2]!]);
}

describe('Start for free, without a sign-up page in config', () => {
  for (const { locale, page, contact } of [
    { locale: 'en', page: 'hub/pricing/index.html', contact: '/hub/contactus/?plan=free' },
    { locale: 'no', page: 'no/hub/pricing/index.html', contact: '/no/hub/contactus/?plan=free' },
  ]) {
    it(`opens the contact form with the plan preselected, and says so (${locale})`, async () => {
      const t = (await messages(locale)).pricing;
      const buttons = planButtons(await read(builtSite, page));
      expect(buttons.length).toBeGreaterThan(1);
      expect(buttons[0]).toEqual([contact, t.startFreeContact]);
      // Plans priced on request are an offer: one action, the contact form with that plan preselected.
      const config = parse(await readFile(join(repoRoot, 'site.config.yaml'), 'utf8')) as {
        plans: { id: string; name: Record<string, string>; price: unknown }[];
      };
      const onRequest = config.plans.filter((plan) => plan.price === 'on-request');
      expect(onRequest.length).toBeGreaterThan(0);
      expect(buttons.slice(1)).toEqual(
        onRequest.map((plan) => [
          contact.replace('plan=free', `plan=${plan.id}`),
          t.requestOffer!.replace('{plan}', plan.name[locale]!),
        ]),
      );
    });

    it(`presents each on-request plan as an offer: what it costs and on what terms, not only "on request" (${locale})`, async () => {
      const t = (await messages(locale)).pricing;
      const html = await read(builtSite, page);
      const offers = [
        ...html.matchAll(
          /<p class="plan-price is-on-request"><strong>([^<]*)<\/strong><span class="plan-offer">([^<]*)<\/span><\/p>/g,
        ),
      ];
      expect(offers.length).toBe(3);
      for (const offer of offers) expect([offer[1], offer[2]]).toEqual([t.onRequest, t.onRequestOffer]);
    });

    it(`gives the launch page's "Start on Free today" a button to the contact form with the free plan preselected (${locale})`, async () => {
      const t = (await messages(locale)).pricing;
      const html = await read(builtSite, page.replace('pricing', 'launch-campaign'));
      const start = html.slice(
        html.indexOf('id="start-free"'),
        html.indexOf('</section>', html.indexOf('id="start-free"')),
      );
      expect(
        [...start.matchAll(/<a class="button button-primary" href="([^"]*)">([^<]*)<\/a>/g)].map((match) => [
          match[1],
          match[2],
        ]),
      ).toEqual([[contact, t.startFreeContact]]);
    });
  }
});

describe('Start for free, with plans[].signupUrl', () => {
  let site: TempSite;
  const out = () => join(site.dir, 'out');

  beforeAll(async () => {
    site = await createTempSite({
      editConfig: (text) =>
        text.replace('  - id: free\n', '  - id: free\n    signupUrl: https://app.mendwise.example/signup?plan=free\n'),
    });
    await buildInto(site.config, out());
  }, 60_000);

  afterAll(() => site?.cleanup());

  it('goes to the sign-up page in both languages', async () => {
    for (const [locale, page] of [
      ['en', 'hub/pricing/index.html'],
      ['no', 'no/hub/pricing/index.html'],
    ] as const) {
      const buttons = planButtons(await read(out(), page));
      expect(buttons[0]).toEqual([
        'https://app.mendwise.example/signup?plan=free',
        (await messages(locale)).pricing.startFree,
      ]);
    }
  });
});

describe('Book a meeting', () => {
  it('offers the built-in booking without booking.url: a form that posts to the booking API, no external link', async () => {
    const html = await read(builtSite, 'hub/book-meeting/index.html');
    expect(html).toContain('data-island="BookingForm"');
    const form = /<form class="booking-form[^>]*>/.exec(html)?.[0] ?? '';
    expect(form).toContain('action="/api/booking"');
    expect(form).toContain('method="post"');
    expect(html).toContain('<a class="button button-primary" href="#booking">');
    expect(html).not.toContain('booking.mendwise.example');
    // Without script: a date and the slot times of one day, 09:00 to 16:30 (Oslo), every 30 minutes.
    const times = [...html.matchAll(/<option value="(\d{2}:\d{2})">/g)].map((match) => match[1]);
    expect(times[0]).toBe('09:00');
    expect(times.at(-1)).toBe('16:30');
    expect(times).toHaveLength(16);
  });

  describe('with booking.url', () => {
    let site: TempSite;
    beforeAll(async () => {
      site = await createTempSite({
        editConfig: (text) => text.replace('booking:\n', 'booking:\n  url: https://cal.example/mendwise/30min\n'),
      });
      await buildInto(site.config, join(site.dir, 'out'));
    }, 60_000);
    afterAll(() => site?.cleanup());

    it('links out to the provider and ships no booking form', async () => {
      const html = await read(join(site.dir, 'out'), 'no/hub/book-meeting/index.html');
      expect(html).toContain('href="https://cal.example/mendwise/30min"');
      expect(html).not.toContain('data-island="BookingForm"');
      expect(html).not.toContain('/api/booking');
    });
  });
});
