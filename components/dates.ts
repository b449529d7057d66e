import { canonicalTimeZone } from '@/lib/analytics/calendar';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "in 3 months", "2 hours ago", "just now". */
export function relativeTime(iso: string, now = Date.now()): string {
  const diff = new Date(iso).getTime() - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return relative.format(Math.round(diff / ms), unit);
  }
  return 'just now';
}

/**
 * "Nov 21, 2026, 3:11 PM GMT+1" in `timeZone` (UTC unless given), its zone always stated: the
 * same on the server that renders the page and in the browser that hydrates it.
 */
export function absoluteTime(iso: string, timeZone = 'UTC'): string {
  return new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(iso)) + ` ${zoneName(iso, timeZone)}`;
}

/** "10:04:12 GMT+1": the moment of an event within its visit, in `timeZone`. */
export function clockTime(ms: number, timeZone = 'UTC'): string {
  const time = new Intl.DateTimeFormat('en', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZone }).format(
    new Date(ms),
  );
  return `${time} ${zoneName(new Date(ms).toISOString(), timeZone)}`;
}

/** "UTC", "GMT+1", "PST": the zone's short name at that instant. */
function zoneName(iso: string, timeZone: string): string {
  if (timeZone === 'UTC') return 'UTC';
  const parts = new Intl.DateTimeFormat('en', { timeZone, timeZoneName: 'short' }).formatToParts(new Date(iso));
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? timeZone;
}

/**
 * The site's time zone: its settings' `business_hours.timezone` when that is an IANA zone (the
 * zone the API's `timezone=site` counts analytics days in), else null (the console shows UTC).
 */
export function siteTimeZone(settings: Record<string, unknown>): string | null {
  const hours = settings.business_hours as { timezone?: unknown } | undefined;
  return typeof hours?.timezone === 'string' ? (canonicalTimeZone(hours.timezone) ?? null) : null;
}
