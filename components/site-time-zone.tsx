'use client';

import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';

/** undefined: outside a site's pages; null: a site without a zone set. */
const Zone = createContext<string | null | undefined>(undefined);

/** Gives the pages of a site its time zone (null: none set, UTC is shown); the site's layout provides it. */
export function SiteTimeZone({ zone, children }: { zone: string | null; children: ReactNode }) {
  return <Zone.Provider value={zone}>{children}</Zone.Provider>;
}

const never = () => () => {};
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const serverZone = () => 'UTC';

/**
 * The time zone dates are shown in: on a site's pages the site's, else UTC (its analytics days are
 * UTC's then); outside them (the account's pages, the list of sites) the person's own, the browser's
 * — UTC in the server's rendering and without JavaScript, the zone named beside each date either way.
 */
export function useTimeZone(): string {
  const site = useContext(Zone);
  const own = useSyncExternalStore(never, browserZone, serverZone);
  return site === undefined ? own : (site ?? 'UTC');
}
