'use client';

import { absoluteTime, clockTime, relativeTime } from '@/components/dates';
import { useTimeZone } from './site-time-zone';

/**
 * A relative time ("in 3 months") with the date in the site's time zone and the UTC instant as
 * its tooltip; `withDate` also prints the date under it. Rendered on the server and again in the
 * browser: "now" differs between the two by the time the page took, so the relative text may
 * change at hydration (not a mismatch to report).
 */
export function Time({ iso, withDate = false }: { iso: string; withDate?: boolean }) {
  const zone = useTimeZone();
  const local = absoluteTime(iso, zone);
  return (
    <>
      <time dateTime={iso} title={zone === 'UTC' ? local : `${local} · ${absoluteTime(iso)}`} suppressHydrationWarning>
        {relativeTime(iso)}
      </time>
      {withDate && <span className="sub">{local}</span>}
    </>
  );
}

/** The time of day of an instant (an event within a visit), in the site's time zone, the UTC instant on hover. */
export function Clock({ ms }: { ms: number }) {
  const zone = useTimeZone();
  const iso = new Date(ms).toISOString();
  return (
    <time dateTime={iso} title={absoluteTime(iso)}>
      {clockTime(ms, zone)}
    </time>
  );
}
