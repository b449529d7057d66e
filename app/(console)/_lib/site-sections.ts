/**
 * The sections of a site's pages, in tab order. A new section (allowed origins, key usage) is a
 * page under /console/sites/[siteId]/<path> plus one entry here; `nested` marks a section with
 * pages of its own below it (its tab stays current on them).
 */
export const SITE_SECTIONS: { path: string; label: string; nested?: boolean }[] = [
  { path: '', label: 'API keys' },
  { path: '/settings', label: 'Settings', nested: true },
  { path: '/snippet', label: 'Tracking snippet' },
];
