/**
 * Calendar days in a time zone, as the instants that bound them. Everything the analytics reads
 * bucket by day goes through here, so a day is the same span for the rollups and the raw queries;
 * daylight-saving days are 23 or 25 hours long. Time zones come from the runtime's IANA database
 * (Intl), so the database needs none.
 */
import { processState } from '@/lib/core/process-state';

const DAY_MS = 86_400_000;

// One per time zone: the runtime's IANA zones bound them (an unknown zone throws before it is kept).
const formatters = processState('analytics.zoneFormatters', () => new Map<string, Intl.DateTimeFormat>());
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The canonical name of an IANA time zone (e.g. `europe/madrid` → `Europe/Madrid`), or undefined. */
export function canonicalTimeZone(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** Wall-clock fields of an instant in a time zone. */
function wallClock(ms: number, timeZone: string) {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return {
    y: Number(parts.year),
    m: Number(parts.month),
    d: Number(parts.day),
    h: Number(parts.hour),
    min: Number(parts.minute),
    s: Number(parts.second),
  };
}

/** The zone's offset from UTC at an instant, in ms (east positive). */
function offsetAt(ms: number, timeZone: string): number {
  const w = wallClock(ms, timeZone);
  return Date.UTC(w.y, w.m - 1, w.d, w.h, w.min, w.s) - Math.floor(ms / 1000) * 1000;
}

/** `YYYY-MM-DD` of an instant in a time zone. */
export function dateIn(ms: number, timeZone: string): string {
  const w = wallClock(ms, timeZone);
  return `${String(w.y).padStart(4, '0')}-${String(w.m).padStart(2, '0')}-${String(w.d).padStart(2, '0')}`;
}

/** Midnight UTC of a date, the arithmetic base for whole days. */
const utcMidnight = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** The date `n` days after `date`. */
export function addDays(date: string, n: number): string {
  return new Date(utcMidnight(date) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included (0 when `to` is before `from`). */
export function daysBetween(from: string, to: string): number {
  return Math.max(0, Math.round((utcMidnight(to) - utcMidnight(from)) / DAY_MS) + 1);
}

// Day starts are asked for again and again (every read covers a year of them): remembered, within bounds.
const starts = processState('analytics.dayStarts', () => new Map<string, number>());
const MAX_REMEMBERED = 50_000;

/**
 * The first instant of a date in a time zone. Where the clocks skip midnight (a daylight-saving
 * change at 00:00), the day starts at the first instant that exists.
 */
export function startOfDay(date: string, timeZone: string): number {
  const key = `${timeZone}|${date}`;
  let start = starts.get(key);
  if (start === undefined) {
    if (starts.size >= MAX_REMEMBERED) starts.clear();
    start = computeStartOfDay(date, timeZone);
    starts.set(key, start);
  }
  return start;
}

function computeStartOfDay(date: string, timeZone: string): number {
  const base = utcMidnight(date);
  let t = base - offsetAt(base, timeZone);
  // The offset at the guess may differ from the one at the true start (a change in between).
  const corrected = base - offsetAt(t, timeZone);
  if (corrected !== t && dateIn(corrected, timeZone) === date) t = corrected;
  // Skipped midnight: the guess lands on the previous day; the day then starts an offset change later.
  while (dateIn(t, timeZone) !== date) t += 15 * 60_000;
  return t;
}

/** A run of consecutive days: their dates and the instants that bound them (`starts[i]` to `starts[i + 1]`). */
export interface Days {
  timeZone: string;
  dates: string[];
  /** One more than `dates`: the last entry is the end of the last day. */
  starts: number[];
}

export function daysOf(from: string, to: string, timeZone: string): Days {
  const n = daysBetween(from, to);
  const dates = Array.from({ length: n }, (_, i) => addDays(from, i));
  const starts = [...dates, addDays(from, n)].map((d) => startOfDay(d, timeZone));
  return { timeZone, dates, starts };
}
