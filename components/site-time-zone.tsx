'use client';

import { createContext, useContext, type ReactNode } from 'react';

const Zone = createContext<string | null>(null);

/** Gives the pages of a site its time zone (null: none set, UTC is shown); the site's layout provides it. */
export function SiteTimeZone({ zone, children }: { zone: string | null; children: ReactNode }) {
  return <Zone.Provider value={zone}>{children}</Zone.Provider>;
}

/** The time zone dates are shown in: the site's, else UTC (outside a site's pages too). */
export function useTimeZone(): string {
  return useContext(Zone) ?? 'UTC';
}
