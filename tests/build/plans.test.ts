/**
 * One source for what each Hub plan includes: the plan data in site.config.yaml. The pricing page
 * and the launch campaign both render from it, so the launch page can promise nothing for the
 * free plan that pricing puts in a paid plan, in either language.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, type ResolvedConfig } from '../../src/config/load';
import { builtSite, repoRoot } from '../helpers/paths';

const read = (path: string) => readFile(join(builtSite, path), 'utf8');

/** The `data-feature` ids inside the first element with the given attribute, in order. */
function featuresIn(html: string, marker: string): string[] {
  const start = html.indexOf(marker);
  if (start < 0) throw new Error(`no ${marker} in the page`);
  const end = html.indexOf('</ul>', start);
  return [...html.slice(start, end).matchAll(/data-feature="([^"]+)"/g)].map((match) => match[1]!);
}

let config: ResolvedConfig;
beforeAll(async () => {
  config = parseConfig(await readFile(join(repoRoot, 'site.config.yaml'), 'utf8'), 'site.config.yaml', repoRoot);
});

describe.each([
  ['en', ''],
  ['no', 'no/'],
])('plans in %s', (locale, prefix) => {
  it('the pricing page lists each plan\'s features from the config, each paid plan as "everything in the one before, plus"', async () => {
    const html = await read(`${prefix}hub/pricing/index.html`);
    const cards = html.split(/<li class="plan(?: is-highlighted)?">/).slice(1);
    expect(cards).toHaveLength(config.plans.length);
    config.plans.forEach((plan, index) => {
      const card = cards[index]!;
      expect([...card.matchAll(/data-feature="([^"]+)"/g)].map((match) => match[1])).toEqual(plan.features);
      const previous = config.plans[index - 1];
      if (previous) expect(card).toContain(`<p class="plan-includes">`);
      else expect(card).not.toContain('plan-includes');
    });
  });

  it('the launch page promises nothing for the free plan that pricing puts in a paid plan', async () => {
    const html = await read(`${prefix}hub/launch-campaign/index.html`);
    const free = config.plans.find((plan) => plan.price !== 'on-request' && plan.price.amount === 0)!;
    const paidOnly = config.plans.filter((plan) => plan !== free).flatMap((plan) => plan.features);
    expect(featuresIn(html, `data-plan="${free.id}"`)).toEqual(free.features);

    // Each card about a feature names the plan that feature starts in on the pricing page.
    const pricing = await read(`${prefix}hub/pricing/index.html`);
    const cards = [...html.matchAll(/<li class="card" data-feature="([^"]+)">(.*?)<\/li>/g)];
    expect(cards.length).toBeGreaterThan(0);
    for (const [, feature, card] of cards) {
      const owner = config.plans.find((plan) => plan.features.includes(feature!));
      expect(owner, feature).toBeDefined();
      if (owner === free) expect(card).not.toContain(`${config.plans[1]!.name[locale]}`);
      else expect(card, feature).toContain(owner!.name[locale]!);
      expect(pricing).toContain(`data-feature="${feature}"`);
    }

    // Words of paid features never appear in the free plan's box.
    const start = html.indexOf(`data-plan="${free.id}"`);
    const box = html.slice(start, html.indexOf('</ul>', start));
    for (const feature of paidOnly) expect(box).not.toContain(`data-feature="${feature}"`);
  });
});
