/** The ROI calculator island: labels, outputs from the shared model, live updates and input errors. */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calculateRoi, parseRoiInput, type RoiInputs } from '../../templates/layout/roi';
import { loadMessages, normalizeSpaces, readYaml, startE2e, type E2e } from './support';

interface RoiConfig {
  locales: Record<string, { intl: string }>;
  /** The site's own facts (`data:`), where the Mendwise site keeps its calculator's settings. */
  data: {
    roi: { timeSavedShare: number; inputs: Record<keyof RoiInputs, { default: number; min: number; max: number }> };
  };
}

const inputNames = ['ordersPerMonth', 'minutesPerOrder', 'hourlyWage', 'revenuePerRepair'] as const;

let e2e: E2e;
let config: { locales: RoiConfig['locales']; roi: RoiConfig['data']['roi'] };
const messages: Record<string, (key: string) => string> = {};
let context: BrowserContext;

beforeAll(async () => {
  let read: RoiConfig;
  [e2e, read, messages.en, messages.no] = await Promise.all([
    startE2e(),
    readYaml<RoiConfig>('site.config.yaml'),
    loadMessages('en'),
    loadMessages('no'),
  ]);
  config = { locales: read.locales, roi: read.data.roi };
  context = await e2e.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
});

afterAll(async () => {
  await context?.close();
  await e2e?.close();
});

const input = (page: Page, name: string) => page.locator(`[data-island="RoiCalculator"] input[name="${name}"]`);
const output = async (page: Page, name: string) =>
  normalizeSpaces((await page.locator(`[data-island="RoiCalculator"] [data-output="${name}"]`).textContent()) ?? '');

/** Every output as the page should show it for `inputs`, formatted like the locale does. */
function expectedOutputs(locale: string, inputs: RoiInputs, share = config.roi.timeSavedShare): Record<string, string> {
  const t = messages[locale]!;
  const intl = config.locales[locale]!.intl;
  const result = calculateRoi(inputs, share);
  const money = new Intl.NumberFormat(intl, { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 });
  const number = new Intl.NumberFormat(intl, { maximumFractionDigits: 1 });
  return {
    hoursSaved: normalizeSpaces(t('roi.hoursValue').replace('{hours}', number.format(result.hoursSaved))),
    extraCapacity: normalizeSpaces(t('roi.ordersValue').replace('{count}', number.format(result.extraCapacity))),
    salarySaving: normalizeSpaces(money.format(result.salarySaving)),
    extraEarnings: normalizeSpaces(money.format(result.extraEarnings)),
  };
}

async function outputs(page: Page): Promise<Record<string, string>> {
  const names = ['hoursSaved', 'extraCapacity', 'salarySaving', 'extraEarnings'];
  return Object.fromEntries(await Promise.all(names.map(async (name) => [name, await output(page, name)])));
}

/** The error message shown for an input, through its aria-describedby, and whether it sits in the input's field. */
async function inputError(page: Page, name: string): Promise<string | undefined> {
  // aria-describedby may also name a hint; the error is the element whose id ends in -error.
  const describedBy = (await input(page, name).getAttribute('aria-describedby'))
    ?.split(' ')
    .find((id) => id.endsWith('-error'));
  if (!describedBy) return undefined;
  const sameField = await input(page, name).evaluate(
    (element, id) => element.closest('.field')?.querySelector(`[id="${id}"]`) !== null,
    describedBy,
  );
  expect(sameField).toBe(true);
  return (await page.locator(`[id="${describedBy}"]`).textContent()) ?? undefined;
}

const pages = [
  { path: '/hub/launch-campaign/', locale: 'en' },
  { path: '/no/hub/pricing/', locale: 'no' },
];

for (const { path, locale } of pages) {
  describe(`${path} (${locale})`, () => {
    let page: Page;
    const t = (key: string) => messages[locale]!(key);
    const defaults = () =>
      Object.fromEntries(inputNames.map((name) => [name, config.roi.inputs[name].default])) as unknown as RoiInputs;
    const format = (value: number) =>
      new Intl.NumberFormat(config.locales[locale]!.intl, { maximumFractionDigits: 1 }).format(value);

    beforeAll(async () => {
      page = await context.newPage();
      await page.goto(e2e.url(path));
    });

    afterAll(async () => {
      await page?.close();
    });

    /** Types into an input and waits until the island has re-rendered. */
    async function type(name: string, value: string) {
      await input(page, name).fill(value);
      await expect.poll(() => input(page, name).inputValue()).toBe(value);
    }

    it('labels each of the four inputs visibly', async () => {
      for (const name of inputNames) {
        const label = page.locator(`[data-island="RoiCalculator"] label[for="roi-${name}"]`);
        expect(await label.isVisible(), name).toBe(true);
        expect(await label.textContent(), name).toBe(t(`roi.inputs.${name}`));
        expect(await page.getByLabel(t(`roi.inputs.${name}`), { exact: true }).getAttribute('name')).toBe(name);
        expect(await input(page, name).isVisible(), name).toBe(true);
      }
    });

    it('shows the outputs of the model for the configured defaults', async () => {
      for (const name of inputNames)
        expect(await input(page, name).inputValue()).toBe(String(config.roi.inputs[name].default));
      expect(await outputs(page)).toEqual(expectedOutputs(locale, defaults()));
    });

    it('updates the outputs as the visitor types', async () => {
      const typed: RoiInputs = { ordersPerMonth: 200, minutesPerOrder: 20, hourlyWage: 40, revenuePerRepair: 30 };
      for (const name of inputNames) await type(name, String(typed[name]));
      const expected = expectedOutputs(locale, typed);
      expect(expected).not.toEqual(expectedOutputs(locale, defaults()));
      await expect.poll(() => outputs(page)).toEqual(expected);
    });

    it('a cleared field says it is required, and the outputs wait for a valid value', async () => {
      await type('hourlyWage', '');
      await expect.poll(() => inputError(page, 'hourlyWage')).toBe(t('roi.required'));
      expect(await input(page, 'hourlyWage').getAttribute('aria-invalid')).toBe('true');
      expect(await output(page, 'salarySaving')).toBe('–');
      for (const name of inputNames.filter((other) => other !== 'hourlyWage'))
        expect(await inputError(page, name), name).toBeUndefined();
      await type('hourlyWage', '40');
      await expect.poll(() => inputError(page, 'hourlyWage')).toBeUndefined();
      expect(await input(page, 'hourlyWage').getAttribute('aria-invalid')).toBeNull();
    });

    it('zero and negative values must be positive', async () => {
      for (const value of ['0', '-5']) {
        await type('minutesPerOrder', value);
        await expect.poll(() => inputError(page, 'minutesPerOrder')).toBe(t('roi.positive'));
      }
      await type('minutesPerOrder', '20');
      await expect.poll(() => inputError(page, 'minutesPerOrder')).toBeUndefined();
    });

    it('values below the minimum or above the maximum name the bound', async () => {
      // Minutes may be fractions, so 0.5 is below the minimum (orders would first have to be whole).
      await type('minutesPerOrder', '0.5');
      await expect
        .poll(() => inputError(page, 'minutesPerOrder'))
        .toBe(normalizeSpaces(t('roi.min').replace('{min}', format(config.roi.inputs.minutesPerOrder.min))));
      await type('minutesPerOrder', '20');
      await expect.poll(() => inputError(page, 'minutesPerOrder')).toBeUndefined();
      const bounds = config.roi.inputs.ordersPerMonth;
      await type('ordersPerMonth', String(bounds.max + 1));
      await expect
        .poll(async () => normalizeSpaces((await inputError(page, 'ordersPerMonth')) ?? ''))
        .toBe(normalizeSpaces(t('roi.max').replace('{max}', format(bounds.max))));
      await type('ordersPerMonth', '200');
      await expect.poll(() => inputError(page, 'ordersPerMonth')).toBeUndefined();
      await expect
        .poll(() => outputs(page))
        .toEqual(
          expectedOutputs(locale, { ordersPerMonth: 200, minutesPerOrder: 20, hourlyWage: 40, revenuePerRepair: 30 }),
        );
    });
  });
}

describe('typing as people do (/no/hub/pricing/)', () => {
  let page: Page;
  const t = (key: string) => messages.no!(key);
  const base: RoiInputs = { ordersPerMonth: 120, minutesPerOrder: 15, hourlyWage: 30, revenuePerRepair: 25 };

  beforeAll(async () => {
    page = await context.newPage();
    await page.goto(e2e.url('/no/hub/pricing/'));
    await page.waitForFunction(
      () => document.querySelector('[data-island="RoiCalculator"] input[name="timeSavedPercent"]') !== null,
    );
  });

  afterAll(async () => {
    await page?.close();
  });

  async function type(name: string, value: string) {
    await input(page, name).fill(value);
    await expect.poll(() => input(page, name).inputValue()).toBe(value);
  }

  it('uses text inputs with a decimal keyboard, so the browser never rewrites what is typed', async () => {
    for (const name of [...inputNames, 'timeSavedPercent']) {
      expect(await input(page, name).getAttribute('type'), name).toBe('text');
      expect(await input(page, name).getAttribute('inputmode'), name).toBe(
        name === 'ordersPerMonth' ? 'numeric' : 'decimal',
      );
    }
  });

  it('reads "12,5" minutes as 12.5', async () => {
    await type('minutesPerOrder', '12,5');
    await expect.poll(() => outputs(page)).toEqual(expectedOutputs('no', { ...base, minutesPerOrder: 12.5 }));
    expect(await inputError(page, 'minutesPerOrder')).toBeUndefined();
    await type('minutesPerOrder', '15');
  });

  it('asks for a whole number of orders', async () => {
    await type('ordersPerMonth', '12,5');
    await expect.poll(() => inputError(page, 'ordersPerMonth')).toBe(t('roi.whole'));
    expect(await output(page, 'hoursSaved')).toBe('–');
    await type('ordersPerMonth', '120');
    await expect.poll(() => inputError(page, 'ordersPerMonth')).toBeUndefined();
  });

  it('says "enter a number" for text', async () => {
    await type('hourlyWage', 'abc');
    await expect.poll(() => inputError(page, 'hourlyWage')).toBe(t('roi.number'));
    await type('hourlyWage', '30');
    await expect.poll(() => inputError(page, 'hourlyWage')).toBeUndefined();
  });

  it('refuses results that would save more hours than a month has', async () => {
    await type('ordersPerMonth', '100000');
    await type('minutesPerOrder', '600');
    const alert = page.locator('[data-island="RoiCalculator"] .roi-impossible');
    await expect
      .poll(async () => normalizeSpaces((await alert.textContent()) ?? ''))
      .toBe(normalizeSpaces(t('roi.impossible').replace('{hours}', '731')));
    for (const name of ['hoursSaved', 'extraCapacity', 'salarySaving', 'extraEarnings'])
      expect(await output(page, name), name).toBe('–');
    await type('ordersPerMonth', '120');
    await type('minutesPerOrder', '15');
    await expect.poll(() => alert.count()).toBe(0);
    await expect.poll(() => outputs(page)).toEqual(expectedOutputs('no', base));
  });

  it('shows the time-saved share as an input with the configured default, and recalculates when it changes', async () => {
    const share = input(page, 'timeSavedPercent');
    expect(await share.inputValue()).toBe(String(Math.round(config.roi.timeSavedShare * 100)));
    expect(await page.getByLabel(t('roi.shareLabel'), { exact: true }).getAttribute('name')).toBe('timeSavedPercent');
    const hint = page.locator('#roi-timeSavedPercent-hint');
    const percent = (value: number) =>
      normalizeSpaces(new Intl.NumberFormat('nb-NO', { style: 'percent', maximumFractionDigits: 1 }).format(value));
    expect(normalizeSpaces((await hint.textContent()) ?? '')).toBe(
      normalizeSpaces(t('roi.assumption').replace('{percent}', percent(config.roi.timeSavedShare))),
    );
    await type('timeSavedPercent', '50');
    await expect.poll(() => outputs(page)).toEqual(expectedOutputs('no', base, 0.5));
    await expect
      .poll(async () => normalizeSpaces((await hint.textContent()) ?? ''))
      .toBe(normalizeSpaces(t('roi.assumption').replace('{percent}', percent(0.5))));
    await type('timeSavedPercent', '100');
    await expect
      .poll(() => inputError(page, 'timeSavedPercent'))
      .toBe(normalizeSpaces(t('roi.max').replace('{max}', '99')));
    await type('timeSavedPercent', String(Math.round(config.roi.timeSavedShare * 100)));
  });

  it('says that salary saving and extra earnings are alternatives, not a sum', async () => {
    const note = page.locator('[data-island="RoiCalculator"] .roi-alternatives');
    expect(await note.isVisible()).toBe(true);
    expect(await note.textContent()).toBe(t('roi.alternatives'));
  });
});

describe('parseRoiInput (the rules the calculator shows)', () => {
  const bounds = { min: 5, max: 100 };

  it('accepts numbers within the bounds, with a comma or a point', () => {
    expect(parseRoiInput('12', bounds)).toEqual({ value: 12 });
    expect(parseRoiInput(' 12,5 ', bounds)).toEqual({ value: 12.5 });
    expect(parseRoiInput('100', bounds)).toEqual({ value: 100 });
  });

  it('names why a value is not usable', () => {
    expect(parseRoiInput('', bounds)).toEqual({ error: 'required' });
    expect(parseRoiInput('   ', bounds)).toEqual({ error: 'required' });
    expect(parseRoiInput('0', bounds)).toEqual({ error: 'positive' });
    expect(parseRoiInput('-5', bounds)).toEqual({ error: 'positive' });
    expect(parseRoiInput('abc', bounds)).toEqual({ error: 'number' });
    expect(parseRoiInput('4', bounds)).toEqual({ error: 'min' });
    expect(parseRoiInput('101', bounds)).toEqual({ error: 'max' });
  });
});
