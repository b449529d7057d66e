/**
 * The sections of a site's pages, in tab order. A new section (site settings, allowed origins,
 * key usage) is a page under /console/sites/[siteId]/<path> plus one entry here.
 */
export const SITE_SECTIONS: { path: string; label: string }[] = [
  { path: '', label: 'API keys' },
  { path: '/snippet', label: 'Tracking snippet' },
];
