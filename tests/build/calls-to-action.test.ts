/** Where the main calls to action lead, as built: "Start for free" and its sign-up override. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildInto } from '../helpers/build';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { builtSite, repoRoot } from '../helpers/paths';

const read = (dir: string, path: string) => readFile(join(dir, path), 'utf8');
const messages = async (locale: string) => parse(await readFile(join(repoRoot, 'content', 'messages', `${locale}.yaml`), 'utf8')) as { pricing: Record<string, string> };

/** The links of the plan cards: [href, label] per plan, in order. */
function planButtons(html: string): [string, string][] {
  const plans = html.slice(html.indexOf('<ul class="plans">'));
  return [...plans.matchAll(/<li class="plan[^"]*">[\s\S]*?<a class="button[^"]*" href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map((match) => [match[1]!.replace(/&amp;/g, '&'), match[2]!]);
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
      // Paid plans still lead to a meeting.
      for (const [href, label] of buttons.slice(1)) {
        expect(href).toMatch(/\/hub\/book-meeting\/$/);
        expect(label).toBe(t.choosePlan);
      }
    });
  }
});

describe('Start for free, with plans[].signupUrl', () => {
  let site: TempSite;
  const out = () => join(site.dir, 'out');

  beforeAll(async () => {
    site = await createTempSite({
      editConfig: (text) => text.replace('  - id: free\n', '  - id: free\n    signupUrl: https://app.mendwise.example/signup?plan=free\n'),
    });
    await buildInto(site.config, out());
  }, 60_000);

  afterAll(() => site?.cleanup());

  it('goes to the sign-up page in both languages', async () => {
    for (const [locale, page] of [['en', 'hub/pricing/index.html'], ['no', 'no/hub/pricing/index.html']] as const) {
      const buttons = planButtons(await read(out(), page));
      expect(buttons[0]).toEqual(['https://app.mendwise.example/signup?plan=free', (await messages(locale)).pricing.startFree]);
    }
  });
});
