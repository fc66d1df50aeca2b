/**
 * The rules of the built-in meeting booking, as pure functions: which slots of `minutes` exist
 * (weekdays and opening hours in one IANA time zone, Europe/Oslo by default), what they are
 * called in ISO 8601 with the zone's offset on that day, and which of them are still free.
 * Offsets come from `Intl` (the runtime's own time-zone data), so CET and CEST fall on the right
 * days without a time-zone library. A slot is identified by its start instant (epoch ms).
 *
 * On the days the clocks change, a slot is a local time of the opening hours that exists that
 * day: one in the hour skipped in spring is not offered; one in the hour that occurs twice in
 * autumn is offered once, at its first occurrence (the earlier instant), and only that instant
 * can be booked. A slot lasts `minutes` of real time, and a slot that would start before the
 * previous one of the day ends (after a skipped hour that `minutes` does not fill) is not offered.
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

/** The time a booked meeting takes: its start and end instants (epoch ms). */
export interface BookedTime {
  start: number;
  end: number;
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
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The zones that are UTC itself: their clocks are the Date's own UTC fields, without Intl. */
const utcZones = new Set(['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT']);

/**
 * The wall-clock fields of an instant in a time zone. UTC (the config's default zone) is read
 * without Intl: the first Intl.DateTimeFormat of a process loads ICU's zone data, 15 ms of a
 * build that renders nothing, which needs only today's date.
 */
function wallClock(instant: number, timeZone: string) {
  if (utcZones.has(timeZone)) {
    const date = new Date(Math.floor(instant / 1000) * 1000);
    return {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
      hour: date.getUTCHours(),
      minute: date.getUTCMinutes(),
      second: date.getUTCSeconds(),
    };
  }
  const fields: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant))
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  return {
    year: fields.year!,
    month: fields.month!,
    day: fields.day!,
    hour: fields.hour!,
    minute: fields.minute!,
    second: fields.second!,
  };
}

/** The offset of `timeZone` from UTC at an instant, in minutes (60 for CET, 120 for CEST). */
export function offsetMinutes(instant: number, timeZone: string): number {
  const wall = wallClock(instant, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / minute);
}

/**
 * The instants at which the clocks of `timeZone` show `date` ("YYYY-MM-DD") at `minutesOfDay`,
 * earliest first: one on most days, none for a time the clocks skip (spring), two for a time they
 * show twice (autumn).
 */
export function localInstants(date: string, minutesOfDay: number, timeZone: string): number[] {
  const [year, month, dayOfMonth] = parseDate(date);
  const wall = Date.UTC(year, month - 1, dayOfMonth, 0, minutesOfDay);
  // The offsets in force a day before and after are the ones either side of any change near `wall`.
  const offsets = new Set([
    offsetMinutes(wall - day, timeZone),
    offsetMinutes(wall, timeZone),
    offsetMinutes(wall + day, timeZone),
  ]);
  const instants: number[] = [];
  for (const offset of offsets) {
    const instant = wall - offset * minute;
    if (offsetMinutes(instant, timeZone) === offset && !instants.includes(instant)) instants.push(instant);
  }
  return instants.sort((a, b) => a - b);
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
  if (
    !match ||
    !isDate(`${match[1]}-${match[2]}-${match[3]}`) ||
    Number(match[4]) > 23 ||
    Number(match[5]) > 59 ||
    Number(match[6] ?? 0) > 59
  )
    return undefined;
  const instant = Date.parse(text);
  return Number.isNaN(instant) ? undefined : instant;
}

/** The local start times of the slots of one day, in minutes after midnight. */
export function slotTimes(rules: SlotRules): number[] {
  const times: number[] = [];
  for (
    let start = clockMinutes(rules.opens);
    start + rules.minutes <= clockMinutes(rules.closes);
    start += rules.minutes
  )
    times.push(start);
  return times;
}

/** Options of `listSlots`. */
export interface ListSlotsOptions {
  /** First calendar day (in the rules' time zone), "YYYY-MM-DD". */
  from: string;
  days: number;
  /** The times of the meetings already booked: a slot that overlaps one is not offered. */
  taken?: readonly BookedTime[];
  /** Slots that start at or before this instant are not offered. */
  now?: number;
}

/**
 * The start instants of the slots of one calendar day, earliest first: each local slot time that
 * exists that day, at its first occurrence, unless it starts before the previous slot ends.
 */
function dayStarts(date: string, rules: SlotRules): number[] {
  if (!rules.weekdays.includes(weekdayOf(date))) return [];
  const [year, month, dayOfMonth] = parseDate(date);
  const midnight = Date.UTC(year, month - 1, dayOfMonth);
  // Most days the offset is the same from the day before to the day after: one offset for every slot.
  const offsets = new Set([-day, 0, day, 2 * day].map((shift) => offsetMinutes(midnight + shift, rules.timeZone)));
  const [offset] = offsets;
  const startAt =
    offsets.size === 1
      ? (time: number) => midnight + (time - offset!) * minute
      : (time: number) => localInstants(date, time, rules.timeZone)[0];
  const starts: number[] = [];
  let previousEnd = -Infinity;
  for (const time of slotTimes(rules)) {
    const start = startAt(time);
    if (start === undefined || start < previousEnd) continue;
    starts.push(start);
    previousEnd = start + rules.minutes * minute;
  }
  return starts;
}

/** The free slots of `days` calendar days from `from`, earliest first. */
export function listSlots(rules: SlotRules, options: ListSlotsOptions): Slot[] {
  const slots: Slot[] = [];
  const overlapsTaken = overlapCheck(options.taken ?? []);
  for (let offset = 0; offset < options.days; offset++) {
    for (const start of dayStarts(addDays(options.from, offset), rules)) {
      if (options.now !== undefined && start <= options.now) continue;
      if (overlapsTaken(start, start + rules.minutes * minute)) continue;
      slots.push(slotOf(start, rules));
    }
  }
  return slots;
}

/** Whether the meeting from `start` to `end` overlaps one of `taken`. */
export function overlapsBooked(taken: Iterable<BookedTime>, start: number, end: number): boolean {
  for (const time of taken) if (time.start < end && time.end > start) return true;
  return false;
}

/**
 * The slot that starts at `start` (ISO 8601 with offset), or undefined when no slot starts then:
 * the instant must be one `listSlots` offers when nothing is taken (so, of a local time the
 * clocks show twice, only the first).
 */
export function slotStartingAt(start: string, rules: SlotRules): (Slot & { instant: number }) | undefined {
  const instant = parseInstant(start);
  if (instant === undefined) return undefined;
  const local = formatZoned(instant, rules.timeZone);
  const time = Number(local.slice(11, 13)) * 60 + Number(local.slice(14, 16));
  if (local.slice(17, 19) !== '00' || instant % 1000 !== 0 || !slotTimes(rules).includes(time)) return undefined;
  if (!dayStarts(local.slice(0, 10), rules).includes(instant)) return undefined;
  return { ...slotOf(instant, rules), instant };
}

/**
 * The slot at local `date` and `time` ("HH:MM") in the rules' zone: how a form without script
 * names one. A time the clocks show twice that day is its first occurrence.
 */
export function slotAtLocal(date: string, time: string, rules: SlotRules): (Slot & { instant: number }) | undefined {
  if (!isDate(date) || !/^\d{2}:\d{2}$/.test(time)) return undefined;
  const instant = localInstants(date, clockMinutes(time), rules.timeZone)[0];
  return instant === undefined ? undefined : slotStartingAt(formatZoned(instant, rules.timeZone), rules);
}

/** Up to `count` free slots after `after` (an instant), looking `days` days ahead. */
export function nextFreeSlots(
  rules: SlotRules,
  after: number,
  count: number,
  options: { days: number; taken?: readonly BookedTime[] },
): Slot[] {
  return listSlots(rules, {
    from: dateIn(after, rules.timeZone),
    days: options.days,
    taken: options.taken,
    now: after,
  }).slice(0, count);
}

/**
 * A test of whether a time overlaps one of `taken`, in O(log n): the meetings sorted by start,
 * with the latest end among each prefix (meetings of different lengths may overlap each other).
 */
function overlapCheck(taken: readonly BookedTime[]): (start: number, end: number) => boolean {
  if (taken.length === 0) return () => false;
  const sorted = [...taken].sort((a, b) => a.start - b.start);
  const latestEnd: number[] = [];
  for (const [index, time] of sorted.entries())
    latestEnd.push(Math.max(time.end, index ? latestEnd[index - 1]! : -Infinity));
  return (start, end) => {
    // The last meeting that starts before `end`; it or one before it overlaps when one ends after `start`.
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (sorted[middle]!.start < end) low = middle + 1;
      else high = middle;
    }
    return low > 0 && latestEnd[low - 1]! > start;
  };
}

function slotOf(start: number, rules: SlotRules): Slot {
  return {
    start: formatZoned(start, rules.timeZone),
    end: formatZoned(start + rules.minutes * minute, rules.timeZone),
  };
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
