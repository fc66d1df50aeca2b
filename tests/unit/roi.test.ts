import { describe, expect, it } from 'vitest';
import { calculateRoi, parseRoiInput } from '../../src/islands/roi';

describe('ROI calculator model', () => {
  it('applies the formulas of the design', () => {
    // 120 orders × 15 min × 0.35 / 60 = 10.5 h; capacity floor(10.5 × 60 / 15) = 42
    expect(calculateRoi({ ordersPerMonth: 120, minutesPerOrder: 15, hourlyWage: 30, revenuePerRepair: 25 }, 0.35)).toEqual({
      hoursSaved: 10.5,
      extraCapacity: 42,
      salarySaving: 315,
      extraEarnings: 1050,
    });
  });

  it('rounds hours to one decimal and money to cents, and never loses an order to float error', () => {
    const result = calculateRoi({ ordersPerMonth: 100, minutesPerOrder: 7, hourlyWage: 33.33, revenuePerRepair: 19.99 }, 0.35);
    // 100 × 7 × 0.35 / 60 = 4.0833… h
    expect(result.hoursSaved).toBe(4.1);
    expect(result.extraCapacity).toBe(35);
    expect(result.salarySaving).toBe(136.1);
    expect(result.extraEarnings).toBe(699.65);
    for (let orders = 1; orders <= 300; orders++) {
      expect(calculateRoi({ ordersPerMonth: orders, minutesPerOrder: 12, hourlyWage: 1, revenuePerRepair: 1 }, 0.35).extraCapacity).toBe(Math.floor((orders * 35) / 100));
    }
  });

  it('validates inputs with the messages of the spec', () => {
    const bounds = { min: 1, max: 1000 };
    expect(parseRoiInput('', bounds)).toEqual({ error: 'required' });
    expect(parseRoiInput('   ', bounds)).toEqual({ error: 'required' });
    expect(parseRoiInput('abc', bounds)).toEqual({ error: 'positive' });
    expect(parseRoiInput('0', bounds)).toEqual({ error: 'positive' });
    expect(parseRoiInput('-3', bounds)).toEqual({ error: 'positive' });
    expect(parseRoiInput('0.5', bounds)).toEqual({ error: 'min' });
    expect(parseRoiInput('1001', bounds)).toEqual({ error: 'max' });
    expect(parseRoiInput('12,5', bounds)).toEqual({ value: 12.5 });
    expect(parseRoiInput('1000', bounds)).toEqual({ value: 1000 });
  });
});
