'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { tagStatusAction } from '@/app/(console)/_lib/overview-actions';

const EVERY_MS = 3000;

/** Asks every few seconds whether the tag has reported in; the page turns live (is rendered again) when it has. */
export function WaitForFirstEvent({ siteId }: { siteId: string }) {
  const router = useRouter();
  const [live, setLive] = useState(false);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const ask = async () => {
      const reported = await tagStatusAction(siteId).catch(() => false);
      if (stopped) return;
      if (reported) {
        setLive(true);
        router.refresh();
      } else timer = setTimeout(ask, EVERY_MS);
    };
    timer = setTimeout(ask, EVERY_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [siteId, router]);
  return (
    <p role="status" className="waiting">
      <span className="live-dot" aria-hidden="true" />
      {live ? 'The first visit arrived — loading the figures…' : 'Waiting for the first event… this page turns live as soon as the tag reports in.'}
    </p>
  );
}
