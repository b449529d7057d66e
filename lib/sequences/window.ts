import type { SendWindow } from './schema';

/**
 * The send window in the site's time zone: the first moment at or after `at` (epoch ms) that lies
 * on an allowed weekday between `start_hour` and `end_hour`, local time. Walks hour boundaries
 * (at most 8 days of them), so time-zone offsets and daylight-saving changes are taken as they come.
 */
const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

export function validTimeZone(tz: string | undefined | null): string {
  if (!tz) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz;
  } catch {
    return 'UTC';
  }
}

function localParts(at: number, timeZone: string): { day: number; hour: number; minute: number; second: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(new Date(at));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '0';
  return { day: WEEKDAYS[get('weekday')] ?? 1, hour: Number(get('hour')), minute: Number(get('minute')), second: Number(get('second')) };
}

export function nextAllowedTime(at: number, window: SendWindow | null, timeZone: string): number {
  if (!window) return at;
  let t = at;
  for (let i = 0; i < 8 * 24 + 2; i++) {
    const p = localParts(t, timeZone);
    if (window.days.includes(p.day) && p.hour >= window.start_hour && p.hour < window.end_hour) return t;
    // The start of the next local hour.
    t = t - (p.minute * 60 + p.second) * 1000 - (t % 1000) + 3_600_000;
  }
  return at;
}

/**
 * The site's day around `at` (epoch ms) in its time zone: when it began and when the next one
 * begins (a daily cap counts the messages of the site's own day, not of the UTC day). Local
 * midnight is found from the local clock and checked, so a day of a daylight-saving change is
 * 23 or 25 hours long as it should be.
 */
export function localDay(at: number, timeZone: string): { start: number; end: number } {
  const midnightBefore = (t: number) => {
    const p = localParts(t, timeZone);
    let start = t - ((p.hour * 60 + p.minute) * 60 + p.second) * 1000 - (t % 1000);
    // A daylight-saving change earlier that day moved the clock: step to the hour the clock says is 0.
    for (let i = 0; i < 2 && localParts(start, timeZone).hour !== 0; i++) start += localParts(start, timeZone).hour >= 12 ? 3_600_000 : -3_600_000;
    return start;
  };
  const start = midnightBefore(at);
  return { start, end: midnightBefore(start + 26 * 3_600_000) };
}
