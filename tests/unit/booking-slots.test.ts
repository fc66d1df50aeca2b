import { describe, expect, it } from 'vitest';
import { addDays, formatZoned, isDate, listSlots, nextFreeSlots, offsetMinutes, parseInstant, slotAtLocal, slotStartingAt, slotTimes, zonedInstant, type SlotRules } from '../../src/booking/slots';

const oslo: SlotRules = { timeZone: 'Europe/Oslo', weekdays: ['Mo', 'Tu', 'We', 'Th', 'Fr'], opens: '09:00', closes: '17:00', minutes: 30 };
const starts = (from: string, days: number, extra: { taken?: Set<number>; now?: number } = {}) => listSlots(oslo, { from, days, ...extra }).map((slot) => slot.start);

describe('booking slots (Mon–Fri 09:00–17:00 Europe/Oslo, 30 minutes)', () => {
  it('has 16 slots a weekday, from 09:00 to the last one ending at 17:00', () => {
    expect(slotTimes(oslo)).toHaveLength(16);
    const monday = listSlots(oslo, { from: '2026-01-12', days: 1 });
    expect(monday).toHaveLength(16);
    expect(monday[0]).toEqual({ start: '2026-01-12T09:00:00+01:00', end: '2026-01-12T09:30:00+01:00' });
    expect(monday.at(-1)).toEqual({ start: '2026-01-12T16:30:00+01:00', end: '2026-01-12T17:00:00+01:00' });
  });

  it('leaves out Saturdays and Sundays', () => {
    // 2026-01-10 is a Saturday; a week from it has five weekdays.
    const slots = starts('2026-01-10', 7);
    expect(slots).toHaveLength(5 * 16);
    expect(slots.some((start) => start.startsWith('2026-01-10') || start.startsWith('2026-01-11') || start.startsWith('2026-01-17'))).toBe(false);
    expect(slots[0]).toBe('2026-01-12T09:00:00+01:00');
  });

  it('moves from CET to CEST on the last Sunday of March: 09:00 Oslo is 08:00 UTC before, 07:00 UTC after', () => {
    const friday = listSlots(oslo, { from: '2026-03-27', days: 1 })[0]!;
    const monday = listSlots(oslo, { from: '2026-03-30', days: 1 })[0]!;
    expect(friday.start).toBe('2026-03-27T09:00:00+01:00');
    expect(new Date(friday.start).toISOString()).toBe('2026-03-27T08:00:00.000Z');
    expect(monday.start).toBe('2026-03-30T09:00:00+02:00');
    expect(new Date(monday.start).toISOString()).toBe('2026-03-30T07:00:00.000Z');
    // The weekend of the change has no slots, and the week after has all of them, still 09:00–17:00 local.
    const week = listSlots(oslo, { from: '2026-03-28', days: 7 });
    expect(week).toHaveLength(5 * 16);
    expect(week.every((slot) => slot.start.endsWith('+02:00') && slot.start.slice(11, 16) >= '09:00' && slot.end.slice(11, 16) <= '17:00')).toBe(true);
  });

  it('moves back to CET on the last Sunday of October', () => {
    const friday = listSlots(oslo, { from: '2026-10-23', days: 1 });
    const monday = listSlots(oslo, { from: '2026-10-26', days: 1 });
    expect(friday[0]!.start).toBe('2026-10-23T09:00:00+02:00');
    expect(new Date(friday[0]!.start).toISOString()).toBe('2026-10-23T07:00:00.000Z');
    expect(monday[0]!.start).toBe('2026-10-26T09:00:00+01:00');
    expect(new Date(monday[0]!.start).toISOString()).toBe('2026-10-26T08:00:00.000Z');
    expect(monday.at(-1)!.end).toBe('2026-10-26T17:00:00+01:00');
    expect(offsetMinutes(Date.parse('2026-10-25T00:30:00Z'), 'Europe/Oslo')).toBe(120);
    expect(offsetMinutes(Date.parse('2026-10-25T01:30:00Z'), 'Europe/Oslo')).toBe(60);
  });

  it('hides taken slots and slots that have started', () => {
    const taken = new Set([Date.parse('2026-01-12T09:30:00+01:00'), Date.parse('2026-01-12T15:00:00+01:00')]);
    const slots = starts('2026-01-12', 1, { taken, now: Date.parse('2026-01-12T09:00:00+01:00') });
    expect(slots).toHaveLength(16 - 3);
    expect(slots[0]).toBe('2026-01-12T10:00:00+01:00');
    expect(slots).not.toContain('2026-01-12T15:00:00+01:00');
    expect(starts('2026-01-12', 1, { now: Date.parse('2026-01-12T08:59:59+01:00') })[0]).toBe('2026-01-12T09:00:00+01:00');
  });

  it('gives the next free slots after a taken one, across the weekend', () => {
    const friday = Date.parse('2026-01-16T16:00:00+01:00');
    const taken = new Set([Date.parse('2026-01-16T16:30:00+01:00'), Date.parse('2026-01-19T09:00:00+01:00')]);
    expect(nextFreeSlots(oslo, friday, 3, { days: 14, taken }).map((slot) => slot.start)).toEqual(['2026-01-19T09:30:00+01:00', '2026-01-19T10:00:00+01:00', '2026-01-19T10:30:00+01:00']);
  });

  it('knows a slot by its start in any offset, and refuses what is not a slot', () => {
    expect(slotStartingAt('2026-03-30T07:00:00Z', oslo)).toMatchObject({ start: '2026-03-30T09:00:00+02:00', end: '2026-03-30T09:30:00+02:00' });
    expect(slotStartingAt('2026-03-30T09:00+02:00', oslo)?.start).toBe('2026-03-30T09:00:00+02:00');
    for (const bad of ['2026-03-30T09:15:00+02:00', '2026-03-30T08:30:00+02:00', '2026-03-30T17:00:00+02:00', '2026-03-28T10:00:00+01:00', '2026-03-30T09:00:30+02:00', '2026-02-30T09:00:00+01:00', '2026-03-30 09:00', 'tomorrow', '2026-03-30T09:00:00']) {
      expect(slotStartingAt(bad, oslo), bad).toBeUndefined();
    }
    expect(slotAtLocal('2026-10-26', '09:00', oslo)?.start).toBe('2026-10-26T09:00:00+01:00');
    expect(slotAtLocal('2026-10-24', '09:00', oslo)).toBeUndefined();
    expect(slotAtLocal('2026-10-26', '9:00', oslo)).toBeUndefined();
  });

  it('does date arithmetic on calendar days', () => {
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(isDate('2026-02-29')).toBe(false);
    expect(isDate('2028-02-29')).toBe(true);
    expect(parseInstant('2026-01-01T24:00:00Z')).toBeUndefined();
    expect(zonedInstant('2026-07-01', 9 * 60, 'Europe/Oslo')).toBe(Date.parse('2026-07-01T07:00:00Z'));
    expect(formatZoned(Date.parse('2026-07-01T07:00:00Z'), 'America/New_York')).toBe('2026-07-01T03:00:00-04:00');
  });
});
