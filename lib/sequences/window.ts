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
