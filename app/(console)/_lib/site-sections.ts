/**
 * The sections of a site's pages, in tab order. A new section is a page under
 * /console/sites/[siteId]/<path> plus one entry here; `nested` marks a section with pages of its own
 * below it (its tab stays current on them); `below` names another folder whose pages belong to the
 * section (a key's usage page, /keys/{id}, belongs to API keys).
 */
export const SITE_SECTIONS: { path: string; label: string; nested?: boolean; below?: string }[] = [
  { path: '', label: 'API keys', below: '/keys' },
  { path: '/origins', label: 'Allowed origins' },
  { path: '/secrets', label: 'Secrets' },
  { path: '/settings', label: 'Settings', nested: true },
  { path: '/workflows', label: 'Workflows', nested: true },
  { path: '/finder', label: 'Finder' },
  { path: '/webhooks', label: 'Webhooks' },
  { path: '/instances', label: 'Instances', nested: true },
  { path: '/snippet', label: 'Tracking snippet' },
  { path: '/platform', label: 'Platform apps' },
  { path: '/email', label: 'Email' },
  { path: '/general', label: 'General' },
];
