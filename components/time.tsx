import { absoluteTime, relativeTime } from '@/app/(console)/_lib/dates';

/**
 * A relative time ("in 3 months") with the exact UTC instant as its tooltip and machine value;
 * `withDate` also prints the instant under it. Server components only: "now" is the server's.
 */
export function Time({ iso, withDate = false }: { iso: string; withDate?: boolean }) {
  return (
    <>
      <time dateTime={iso} title={absoluteTime(iso)}>
        {relativeTime(iso)}
      </time>
      {withDate && <span className="sub">{absoluteTime(iso)}</span>}
    </>
  );
}
