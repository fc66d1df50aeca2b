import { describe, expect, it } from 'vitest';
import { calculateRoi, hoursInMonth, isPossibleRoi, parseRoiInput } from '../../templates/layout/roi';

describe('ROI calculator model', () => {
  it('applies the formulas of the design', () => {
    // 120 orders × 15 min × 0.35 / 60 = 10.5 h; capacity floor(10.5 × 60 / 15) = 42
    expect(
      calculateRoi({ ordersPerMonth: 120, minutesPerOrder: 15, hourlyWage: 30, revenuePerRepair: 25 }, 0.35),
    ).toEqual({
      hoursSaved: 10.5,
      extraCapacity: 42,
      salarySaving: 315,
      extraEarnings: 1050,
    });
  });

  it('rounds hours to one decimal and money to cents, and never loses an order to float error', () => {
    const result = calculateRoi(
      { ordersPerMonth: 100, minutesPerOrder: 7, hourlyWage: 33.33, revenuePerRepair: 19.99 },
      0.35,
    );
    // 100 × 7 × 0.35 / 60 = 4.0833… h
    expect(result.hoursSaved).toBe(4.1);
    expect(result.extraCapacity).toBe(35);
    expect(result.salarySaving).toBe(136.1);
    expect(result.extraEarnings).toBe(699.65);
    for (let orders = 1; orders <= 300; orders++) {
      expect(
        calculateRoi({ ordersPerMonth: orders, minutesPerOrder: 12, hourlyWage: 1, revenuePerRepair: 1 }, 0.35)
          .extraCapacity,
      ).toBe(Math.floor((orders * 35) / 100));
    }
  });

  it('validates inputs with the messages of the spec', () => {
    const bounds = { min: 1, max: 1000 };
    expect(parseRoiInput('', bounds)).toEqual({ error: 'required' });
    expect(parseRoiInput('   ', bounds)).toEqual({ error: 'required' });
    expect(parseRoiInput('abc', bounds)).toEqual({ error: 'number' });
    expect(parseRoiInput('0', bounds)).toEqual({ error: 'positive' });
    expect(parseRoiInput('-3', bounds)).toEqual({ error: 'positive' });
    expect(parseRoiInput('0.5', bounds)).toEqual({ error: 'min' });
    expect(parseRoiInput('1001', bounds)).toEqual({ error: 'max' });
    expect(parseRoiInput('12,5', bounds)).toEqual({ value: 12.5 });
    expect(parseRoiInput('1000', bounds)).toEqual({ value: 1000 });
  });

  it('reads a decimal comma as a decimal mark, on a Norwegian page and an English one', () => {
    const bounds = { min: 1, max: 100_000 };
    expect(parseRoiInput('12,5', bounds, { intl: 'nb-NO' })).toEqual({ value: 12.5 });
    expect(parseRoiInput('12.5', bounds, { intl: 'nb-NO' })).toEqual({ value: 12.5 });
    expect(parseRoiInput('12,5', bounds, { intl: 'en-GB' })).toEqual({ value: 12.5 });
    // Norwegian thousands are separated by (non-breaking) spaces, English ones by commas in groups of three.
    expect(parseRoiInput('1 250', bounds, { intl: 'nb-NO' })).toEqual({ value: 1250 });
    expect(parseRoiInput('1\u00a0250,5', bounds, { intl: 'nb-NO' })).toEqual({ value: 1250.5 });
    expect(parseRoiInput('1,250', bounds, { intl: 'en-GB' })).toEqual({ value: 1250 });
    expect(parseRoiInput('1,250', bounds, { intl: 'nb-NO' })).toEqual({ value: 1.25 });
    expect(parseRoiInput('1,250.5', bounds, { intl: 'en-GB' })).toEqual({ value: 1250.5 });
  });

  it('takes whole numbers only where it counts orders', () => {
    const bounds = { min: 1, max: 1000 };
    expect(parseRoiInput('12,5', bounds, { intl: 'nb-NO', whole: true })).toEqual({ error: 'whole' });
    expect(parseRoiInput('12.5', bounds, { whole: true })).toEqual({ error: 'whole' });
    expect(parseRoiInput('12', bounds, { whole: true })).toEqual({ value: 12 });
    expect(parseRoiInput('12,0', bounds, { intl: 'nb-NO', whole: true })).toEqual({ value: 12 });
  });

  it('says "enter a number" for text that is not one, including what Number() would accept', () => {
    const bounds = { min: 1, max: 1_000_000 };
    for (const text of ['abc', '12abc', '1e3', '0x10', 'Infinity', '1,2,3', '1.2.3', '12,5,', '--3', '1 2,3,4']) {
      expect(parseRoiInput(text, bounds, { intl: 'nb-NO' }), text).toEqual({ error: 'number' });
    }
  });

  it('refuses results that save more hours than a month has', () => {
    expect(hoursInMonth).toBeCloseTo(730.5, 5);
    const possible = calculateRoi(
      { ordersPerMonth: 2000, minutesPerOrder: 60, hourlyWage: 30, revenuePerRepair: 25 },
      0.35,
    );
    expect(possible.hoursSaved).toBe(700);
    expect(isPossibleRoi(possible)).toBe(true);
    const impossible = calculateRoi(
      { ordersPerMonth: 100_000, minutesPerOrder: 600, hourlyWage: 30, revenuePerRepair: 25 },
      0.35,
    );
    expect(isPossibleRoi(impossible)).toBe(false);
  });
});
