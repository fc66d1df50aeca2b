import { describe, expect, it } from 'vitest';
import {
  addDays,
  formatZoned,
  isDate,
  listSlots,
  localInstants,
  nextFreeSlots,
  offsetMinutes,
  parseInstant,
  slotAtLocal,
  slotStartingAt,
  slotTimes,
  type BookedTime,
  type SlotRules,
} from '../../src/booking/slots';

const oslo: SlotRules = {
  timeZone: 'Europe/Oslo',
  weekdays: ['Mo', 'Tu', 'We', 'Th', 'Fr'],
  opens: '09:00',
  closes: '17:00',
  minutes: 30,
};
const starts = (from: string, days: number, extra: { taken?: BookedTime[]; now?: number } = {}) =>
  listSlots(oslo, { from, days, ...extra }).map((slot) => slot.start);
/** A booked meeting of `minutes` from `start`. */
const meeting = (start: string, minutes = 30): BookedTime => ({
  start: Date.parse(start),
  end: Date.parse(start) + minutes * 60_000,
});

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
    expect(
      slots.some(
        (start) => start.startsWith('2026-01-10') || start.startsWith('2026-01-11') || start.startsWith('2026-01-17'),
      ),
    ).toBe(false);
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
    expect(
      week.every(
        (slot) =>
          slot.start.endsWith('+02:00') && slot.start.slice(11, 16) >= '09:00' && slot.end.slice(11, 16) <= '17:00',
      ),
    ).toBe(true);
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
    const taken = [meeting('2026-01-12T09:30:00+01:00'), meeting('2026-01-12T15:00:00+01:00')];
    const slots = starts('2026-01-12', 1, { taken, now: Date.parse('2026-01-12T09:00:00+01:00') });
    expect(slots).toHaveLength(16 - 3);
    expect(slots[0]).toBe('2026-01-12T10:00:00+01:00');
    expect(slots).not.toContain('2026-01-12T15:00:00+01:00');
    expect(starts('2026-01-12', 1, { now: Date.parse('2026-01-12T08:59:59+01:00') })[0]).toBe(
      '2026-01-12T09:00:00+01:00',
    );
  });

  it('gives the next free slots after a taken one, across the weekend', () => {
    const friday = Date.parse('2026-01-16T16:00:00+01:00');
    const taken = [meeting('2026-01-16T16:30:00+01:00'), meeting('2026-01-19T09:00:00+01:00')];
    expect(nextFreeSlots(oslo, friday, 3, { days: 14, taken }).map((slot) => slot.start)).toEqual([
      '2026-01-19T09:30:00+01:00',
      '2026-01-19T10:00:00+01:00',
      '2026-01-19T10:30:00+01:00',
    ]);
  });

  it('knows a slot by its start in any offset, and refuses what is not a slot', () => {
    expect(slotStartingAt('2026-03-30T07:00:00Z', oslo)).toMatchObject({
      start: '2026-03-30T09:00:00+02:00',
      end: '2026-03-30T09:30:00+02:00',
    });
    expect(slotStartingAt('2026-03-30T09:00+02:00', oslo)?.start).toBe('2026-03-30T09:00:00+02:00');
    for (const bad of [
      '2026-03-30T09:15:00+02:00',
      '2026-03-30T08:30:00+02:00',
      '2026-03-30T17:00:00+02:00',
      '2026-03-28T10:00:00+01:00',
      '2026-03-30T09:00:30+02:00',
      '2026-02-30T09:00:00+01:00',
      '2026-03-30 09:00',
      'tomorrow',
      '2026-03-30T09:00:00',
    ]) {
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
    expect(localInstants('2026-07-01', 9 * 60, 'Europe/Oslo')).toEqual([Date.parse('2026-07-01T07:00:00Z')]);
    expect(formatZoned(Date.parse('2026-07-01T07:00:00Z'), 'America/New_York')).toBe('2026-07-01T03:00:00-04:00');
  });

  it('reads UTC without Intl, with the same clocks Intl shows', () => {
    // 'Etc/Universal' is UTC by another name, so Intl reads it: the two must agree to the second.
    const instants = [
      0,
      Date.parse('2026-12-31T23:59:59.999Z'),
      Date.parse('2028-02-29T12:00:00Z'),
      Date.parse('1969-12-31T23:59:59.500Z'),
    ];
    for (let step = 0; step < 200; step++) instants.push(Date.parse('2000-01-01T00:00:00Z') + step * 86_399_937);
    for (const instant of instants) expect(formatZoned(instant, 'UTC')).toBe(formatZoned(instant, 'Etc/Universal'));
    expect(formatZoned(Date.parse('2026-12-31T23:59:59.999Z'), 'UTC')).toBe('2026-12-31T23:59:59+00:00');
    expect(offsetMinutes(Date.parse('2026-07-01T07:00:00Z'), 'UTC')).toBe(0);
  });
});

describe('booking slots on the days the clocks change', () => {
  const night = (timeZone: string, minutes = 30): SlotRules => ({
    timeZone,
    weekdays: ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'],
    opens: '00:00',
    closes: '05:00',
    minutes,
  });
  const instant = (start: string) => Date.parse(start);

  /** What must hold of any day's slots: each bookable by its start and by its local date and time, no instant twice, each `minutes` long, none overlapping the next. */
  function expectConsistent(rules: SlotRules, date: string) {
    const slots = listSlots(rules, { from: date, days: 1 });
    const instants = slots.map((slot) => instant(slot.start));
    expect(new Set(instants).size, 'an instant offered twice').toBe(instants.length);
    expect(instants, 'in time order').toEqual([...instants].sort((a, b) => a - b));
    slots.forEach((slot, index) => {
      expect(slotStartingAt(slot.start, rules), slot.start).toMatchObject(slot);
      expect(slotAtLocal(date, slot.start.slice(11, 16), rules), slot.start).toMatchObject(slot);
      expect(instant(slot.end) - instant(slot.start), slot.start).toBe(rules.minutes * 60_000);
      if (index > 0) expect(instant(slot.start), slot.start).toBeGreaterThanOrEqual(instant(slots[index - 1]!.end));
    });
    return slots;
  }

  it('Europe/Oslo in spring (29 March 2026): 02:00–02:59 does not exist, so its slots are not offered', () => {
    const rules = night('Europe/Oslo');
    const slots = expectConsistent(rules, '2026-03-29');
    expect(slots.map((slot) => slot.start.slice(11))).toEqual([
      '00:00:00+01:00',
      '00:30:00+01:00',
      '01:00:00+01:00',
      '01:30:00+01:00',
      '03:00:00+02:00',
      '03:30:00+02:00',
      '04:00:00+02:00',
      '04:30:00+02:00',
    ]);
    // 01:30 CET lasts half an hour of real time: it ends when the clocks, jumping, show 03:00.
    expect(slots[3]).toEqual({ start: '2026-03-29T01:30:00+01:00', end: '2026-03-29T03:00:00+02:00' });
    expect(slotAtLocal('2026-03-29', '02:00', rules)).toBeUndefined();
    expect(slotAtLocal('2026-03-29', '02:30', rules)).toBeUndefined();
  });

  it('Europe/Oslo in autumn (25 October 2026): 02:00–02:59 happens twice, and is offered and bookable once, at its first occurrence (CEST)', () => {
    const rules = night('Europe/Oslo');
    const slots = expectConsistent(rules, '2026-10-25');
    expect(slots.map((slot) => slot.start.slice(11))).toEqual([
      '00:00:00+02:00',
      '00:30:00+02:00',
      '01:00:00+02:00',
      '01:30:00+02:00',
      '02:00:00+02:00',
      '02:30:00+02:00',
      '03:00:00+01:00',
      '03:30:00+01:00',
      '04:00:00+01:00',
      '04:30:00+01:00',
    ]);
    expect(slots[5]).toEqual({ start: '2026-10-25T02:30:00+02:00', end: '2026-10-25T02:00:00+01:00' });
    expect(slotAtLocal('2026-10-25', '02:00', rules)?.start).toBe('2026-10-25T02:00:00+02:00');
    // The second 02:00 and 02:30 (CET) are the same local times, not slots of their own.
    expect(slotStartingAt('2026-10-25T02:00:00+01:00', rules)).toBeUndefined();
    expect(slotStartingAt('2026-10-25T01:30:00Z', rules)).toBeUndefined();
    expect(localInstants('2026-10-25', 2 * 60, 'Europe/Oslo')).toEqual([
      instant('2026-10-25T02:00:00+02:00'),
      instant('2026-10-25T02:00:00+01:00'),
    ]);
    expect(localInstants('2026-03-29', 2 * 60, 'Europe/Oslo')).toEqual([]);
  });

  it('Europe/Oslo with 45-minute slots: no slot in the skipped hour, and none that would start before the one before it ends', () => {
    const rules = night('Europe/Oslo', 45);
    expect(expectConsistent(rules, '2026-03-29').map((slot) => slot.start.slice(11))).toEqual([
      '00:00:00+01:00',
      '00:45:00+01:00',
      '01:30:00+01:00',
      '03:45:00+02:00',
    ]);
    // 01:30 CET ends at 03:15 CEST, so the 03:00 slot would overlap it; 02:15 does not exist.
    for (const start of ['2026-03-29T03:00:00+02:00', '2026-03-29T03:15:00+02:00'])
      expect(slotStartingAt(start, rules), start).toBeUndefined();
    expect(expectConsistent(rules, '2026-10-25').map((slot) => slot.start.slice(11))).toEqual([
      '00:00:00+02:00',
      '00:45:00+02:00',
      '01:30:00+02:00',
      '02:15:00+02:00',
      '03:00:00+01:00',
      '03:45:00+01:00',
    ]);
  });

  it('Australia/Lord_Howe, whose clocks move by 30 minutes: 02:00–02:29 skipped on 4 October 2026, 01:30–01:59 twice on 5 April 2026', () => {
    const rules = night('Australia/Lord_Howe');
    const spring = expectConsistent(rules, '2026-10-04');
    expect(spring.map((slot) => slot.start.slice(11))).toEqual([
      '00:00:00+10:30',
      '00:30:00+10:30',
      '01:00:00+10:30',
      '01:30:00+10:30',
      '02:30:00+11:00',
      '03:00:00+11:00',
      '03:30:00+11:00',
      '04:00:00+11:00',
      '04:30:00+11:00',
    ]);
    expect(slotAtLocal('2026-10-04', '02:00', rules)).toBeUndefined();
    const autumn = expectConsistent(rules, '2026-04-05');
    expect(autumn.map((slot) => slot.start.slice(11))).toEqual([
      '00:00:00+11:00',
      '00:30:00+11:00',
      '01:00:00+11:00',
      '01:30:00+11:00',
      '02:00:00+10:30',
      '02:30:00+10:30',
      '03:00:00+10:30',
      '03:30:00+10:30',
      '04:00:00+10:30',
      '04:30:00+10:30',
    ]);
    expect(autumn[3]).toEqual({ start: '2026-04-05T01:30:00+11:00', end: '2026-04-05T01:30:00+10:30' });
    expect(slotStartingAt('2026-04-05T01:30:00+10:30', rules)).toBeUndefined();
    expect(slotAtLocal('2026-04-05', '01:30', rules)?.start).toBe('2026-04-05T01:30:00+11:00');
    expect(
      expectConsistent(night('Australia/Lord_Howe', 45), '2026-10-04').map((slot) => slot.start.slice(11)),
    ).toEqual(['00:00:00+10:30', '00:45:00+10:30', '01:30:00+10:30', '03:00:00+11:00', '03:45:00+11:00']);
  });

  it('hides a slot that overlaps a meeting booked when slots had another length', () => {
    const rules = { ...oslo, minutes: 45 };
    // Booked as 09:30–10:00 when meetings took 30 minutes: 09:00–09:45 and 09:45–10:30 now overlap it.
    const slots = listSlots(rules, { from: '2026-01-12', days: 1, taken: [meeting('2026-01-12T09:30:00+01:00')] }).map(
      (slot) => slot.start.slice(11, 16),
    );
    expect(slots.slice(0, 2)).toEqual(['10:30', '11:15']);
    expect(
      nextFreeSlots(rules, Date.parse('2026-01-12T08:00:00+01:00'), 1, {
        days: 1,
        taken: [meeting('2026-01-12T09:30:00+01:00')],
      })[0]!.start,
    ).toBe('2026-01-12T10:30:00+01:00');
  });
});
