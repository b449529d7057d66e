/** How the console prints figures: counts with separators, shares as percents, durations in words. */
export const count = (n: number) => n.toLocaleString('en');

export const percent = (share: number | null) => (share === null ? '—' : `${Math.round(share * 100)}%`);

/** "1m 23s", "2h 5m", "12s"; "—" without a value. */
export function duration(ms: number | null): string {
  if (ms === null) return '—';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

const day = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** "Nov 24" for the day 2026-11-24. */
export const shortDay = (date: string) => day.format(new Date(`${date}T00:00:00Z`));

/** A URL without its origin when it is on the page's own site: "/pricing?x=1". */
export function pathOf(url: string | null): string {
  if (!url) return '—';
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}
