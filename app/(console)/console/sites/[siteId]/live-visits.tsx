'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { visitsMarkAction } from '@/app/(console)/_lib/overview-actions';

const EVERY_MS = 4000;

/**
 * Keeps the Overview current while it stays open: asks every few seconds for the mark of the
 * site's latest visit or activity (`mark`: the one the page was rendered with) and renders the page
 * again when it changed — the waiting state turns live on the first person's visit this way. Asks
 * only while the tab is visible.
 */
export function LiveVisits({ siteId, mark, waiting }: { siteId: string; mark: string; waiting: boolean }) {
  const router = useRouter();
  // The mark the page was rendered with when a newer one was seen: loading until the page comes back with another.
  const [staleMark, setStaleMark] = useState<string | null>(null);
  const loading = staleMark === mark;
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const ask = async () => {
      const latest = document.visibilityState === 'visible' ? await visitsMarkAction(siteId).catch(() => mark) : mark;
      if (stopped) return;
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
  }, [siteId, mark, router]);
  if (waiting) {
    return (
      <p role="status" className="waiting">
        <span className="live-dot" aria-hidden="true" />
        {loading ? 'A visit arrived — loading…' : 'Waiting for the first visit… this page turns live as soon as a person opens one of your pages.'}
      </p>
    );
  }
  return (
    <p className="live-note" data-testid="live-note">
      <span className="live-dot" aria-hidden="true" />
      {loading ? 'Updating…' : 'Live: new visits show here by themselves'}
    </p>
  );
}
