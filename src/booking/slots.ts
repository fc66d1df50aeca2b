/**
 * The rules of the built-in meeting booking, as pure functions: which 30-minute slots exist
 * (weekdays and opening hours in one IANA time zone, Europe/Oslo by default), what they are
 * called in ISO 8601 with the zone's offset on that day, and which of them are still free.
 * Offsets come from `Intl` (the runtime's own time-zone data), so CET and CEST fall on the right
 * days without a time-zone library. A slot is identified by its start instant (epoch ms).
 */

/** Weekdays as the config writes them (Mo = Monday). */
export type Weekday = 'Mo' | 'Tu' | 'We' | 'Th' | 'Fr' | 'Sa' | 'Su';

/** When meetings can be booked. */
export interface SlotRules {
  /** IANA time zone the opening hours are in, e.g. "Europe/Oslo". */
  timeZone: string;
  weekdays: readonly Weekday[];
  /** Local opening and closing time, "HH:MM"; the last slot ends at `closes`. */
  opens: string;
  closes: string;
  /** Length of a slot in minutes. */
  minutes: number;
}

/** A bookable slot: start and end in ISO 8601 with the time zone's offset. */
export interface Slot {
  start: string;
  end: string;
}

const weekdayOfIndex: readonly Weekday[] = ['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa'];
const minute = 60_000;
const day = 24 * 60 * minute;
const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const isoPattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock fields of an instant in a time zone. */
function wallClock(instant: number, timeZone: string) {
  const fields: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant)) if (part.type !== 'literal') fields[part.type] = Number(part.value);
  return { year: fields.year!, month: fields.month!, day: fields.day!, hour: fields.hour!, minute: fields.minute!, second: fields.second! };
}

/** The offset of `timeZone` from UTC at an instant, in minutes (60 for CET, 120 for CEST). */
export function offsetMinutes(instant: number, timeZone: string): number {
  const wall = wallClock(instant, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / minute);
}

/** The instant at which the clocks of `timeZone` show `date` ("YYYY-MM-DD") at `minutesOfDay`. */
export function zonedInstant(date: string, minutesOfDay: number, timeZone: string): number {
  const [year, month, dayOfMonth] = parseDate(date);
  const wall = Date.UTC(year, month - 1, dayOfMonth, 0, minutesOfDay);
  // The offset at the wall time read as UTC is right except within hours of a change; one more look settles it.
  const first = wall - offsetMinutes(wall, timeZone) * minute;
  const second = wall - offsetMinutes(first, timeZone) * minute;
  return second;
}

/** An instant in ISO 8601 as the clocks of `timeZone` show it, with their offset: "2026-03-30T09:00:00+02:00". */
export function formatZoned(instant: number, timeZone: string): string {
  const wall = wallClock(instant, timeZone);
  const offset = offsetMinutes(instant, timeZone);
  const sign = offset < 0 ? '-' : '+';
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${wall.year}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
}

/** The calendar date ("YYYY-MM-DD") of an instant in `timeZone`. */
export function dateIn(instant: number, timeZone: string): string {
  return formatZoned(instant, timeZone).slice(0, 10);
}

/** `date` plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const [year, month, dayOfMonth] = parseDate(date);
  return new Date(Date.UTC(year, month - 1, dayOfMonth) + days * day).toISOString().slice(0, 10);
}

/** Whether `text` is a real calendar date written "YYYY-MM-DD". */
export function isDate(text: string): boolean {
  const match = datePattern.exec(text);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === text;
}

/** The instant of an ISO 8601 date-time with an offset or Z; undefined for anything else. */
export function parseInstant(text: string): number | undefined {
  const match = isoPattern.exec(text);
  if (!match || !isDate(`${match[1]}-${match[2]}-${match[3]}`) || Number(match[4]) > 23 || Number(match[5]) > 59 || Number(match[6] ?? 0) > 59) return undefined;
  const instant = Date.parse(text);
  return Number.isNaN(instant) ? undefined : instant;
}

/** The local start times of the slots of one day, in minutes after midnight. */
export function slotTimes(rules: SlotRules): number[] {
  const times: number[] = [];
  for (let start = clockMinutes(rules.opens); start + rules.minutes <= clockMinutes(rules.closes); start += rules.minutes) times.push(start);
  return times;
}

/** Options of `listSlots`. */
export interface ListSlotsOptions {
  /** First calendar day (in the rules' time zone), "YYYY-MM-DD". */
  from: string;
  days: number;
  /** Start instants of booked slots. */
  taken?: ReadonlySet<number>;
  /** Slots that start at or before this instant are not offered. */
  now?: number;
}

/** The free slots of `days` calendar days from `from`, earliest first. */
export function listSlots(rules: SlotRules, options: ListSlotsOptions): Slot[] {
  const slots: Slot[] = [];
  const times = slotTimes(rules);
  for (let offset = 0; offset < options.days; offset++) {
    const date = addDays(options.from, offset);
    if (!rules.weekdays.includes(weekdayOf(date))) continue;
    for (const time of times) {
      const start = zonedInstant(date, time, rules.timeZone);
      if (options.now !== undefined && start <= options.now) continue;
      if (options.taken?.has(start)) continue;
      slots.push(slotOf(start, rules));
    }
  }
  return slots;
}

/** The slot that starts at `start` (ISO 8601 with offset), or undefined when no slot starts then. */
export function slotStartingAt(start: string, rules: SlotRules): (Slot & { instant: number }) | undefined {
  const instant = parseInstant(start);
  if (instant === undefined) return undefined;
  const local = formatZoned(instant, rules.timeZone);
  const date = local.slice(0, 10);
  const time = Number(local.slice(11, 13)) * 60 + Number(local.slice(14, 16));
  if (local.slice(17, 19) !== '00' || instant % 1000 !== 0) return undefined;
  if (!rules.weekdays.includes(weekdayOf(date)) || !slotTimes(rules).includes(time)) return undefined;
  return { ...slotOf(instant, rules), instant };
}

/** The slot at local `date` and `time` ("HH:MM") in the rules' zone: how a form without script names one. */
export function slotAtLocal(date: string, time: string, rules: SlotRules): (Slot & { instant: number }) | undefined {
  if (!isDate(date) || !/^\d{2}:\d{2}$/.test(time)) return undefined;
  return slotStartingAt(formatZoned(zonedInstant(date, clockMinutes(time), rules.timeZone), rules.timeZone), rules);
}

/** Up to `count` free slots after `after` (an instant), looking `days` days ahead. */
export function nextFreeSlots(rules: SlotRules, after: number, count: number, options: { days: number; taken?: ReadonlySet<number> }): Slot[] {
  return listSlots(rules, { from: dateIn(after, rules.timeZone), days: options.days, taken: options.taken, now: after }).slice(0, count);
}

function slotOf(start: number, rules: SlotRules): Slot {
  return { start: formatZoned(start, rules.timeZone), end: formatZoned(start + rules.minutes * minute, rules.timeZone) };
}

function weekdayOf(date: string): Weekday {
  const [year, month, dayOfMonth] = parseDate(date);
  return weekdayOfIndex[new Date(Date.UTC(year, month - 1, dayOfMonth)).getUTCDay()]!;
}

function clockMinutes(clock: string): number {
  return Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
}

function parseDate(date: string): [number, number, number] {
  const match = datePattern.exec(date);
  if (!match) throw new RangeError(`not a date: ${date}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}
