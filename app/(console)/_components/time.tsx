import { absoluteTime, relativeTime } from '../_lib/dates';

/** A relative time ("in 3 months") with the exact UTC instant as its tooltip and machine value. */
export function Time({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={absoluteTime(iso)}>
      {relativeTime(iso)}
    </time>
  );
}
