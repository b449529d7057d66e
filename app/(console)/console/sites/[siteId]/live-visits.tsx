'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { visitorsNowAction, visitsMarkAction } from '@/app/(console)/_lib/overview-actions';

const EVERY_MS = 4000;

/**
 * Keeps the Overview current while it stays open: asks every few seconds for the mark of the
 * site's latest visit or activity (`mark`: the one the page was rendered with) and renders the page
 * again when it changed — the waiting state turns live on the first person's visit this way — and,
 * once live, for the visitors active now (GET /sites/{id}/analytics/realtime, with the page's
 * filters), which falls as visitors go quiet without any new activity. Asks only while the tab is visible.
 */
export function LiveVisits({
  siteId,
  mark,
  waiting,
  visitorsNow,
  filters = [],
}: {
  siteId: string;
  mark: string;
  waiting: boolean;
  /** Visitors active in the last 5 minutes when the page was rendered (live only). */
  visitorsNow?: number;
  filters?: string[];
}) {
  const router = useRouter();
  // The mark the page was rendered with when a newer one was seen: loading until the page comes back with another.
  const [staleMark, setStaleMark] = useState<string | null>(null);
  // The count asked for since the page was rendered, with the render's count it replaced (a new render's count wins).
  const [asked, setAsked] = useState<{ of: number | undefined; n: number } | null>(null);
  const loading = staleMark === mark;
  const filterKey = filters.join('\n');
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const ask = async () => {
      const visible = document.visibilityState === 'visible';
      const [latest, n] = await Promise.all([
        visible ? visitsMarkAction(siteId).catch(() => mark) : mark,
        visible && !waiting ? visitorsNowAction(siteId, filterKey ? filterKey.split('\n') : []).catch(() => undefined) : undefined,
      ]);
      if (stopped) return;
      if (n !== undefined) setAsked({ of: visitorsNow, n });
      if (latest !== mark) {
        setStaleMark(mark);
        router.refresh();
      } else timer = setTimeout(ask, EVERY_MS);
    };
    timer = setTimeout(ask, EVERY_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [siteId, mark, router, waiting, visitorsNow, filterKey]);
  if (waiting) {
    return (
      <p role="status" className="waiting">
        <span className="live-dot" aria-hidden="true" />
        {loading ? 'A visit arrived — loading…' : 'Waiting for the first visit… this page turns live as soon as a person opens one of your pages.'}
      </p>
    );
  }
  const now = asked && asked.of === visitorsNow ? asked.n : (visitorsNow ?? 0);
  return (
    <p className="live-note" data-testid="live-note">
      <span className="live-dot" aria-hidden="true" />
      <strong data-testid="visitors-now">
        {now.toLocaleString('en')} {now === 1 ? 'visitor' : 'visitors'} now
      </strong>
      <span aria-hidden="true"> · </span>
      {loading ? 'Updating…' : 'Live: new visits show here by themselves'}
    </p>
  );
}
