import type { Permission } from '@/lib/members/permissions';

/**
 * The sections of a site's pages, in groups, in menu order. A new section is a page under
 * /console/sites/[siteId]/<path> plus one entry here; `nested` marks a section with pages of its
 * own below it (it stays current on them).
 */
export interface SiteSection {
  path: string;
  label: string;
  nested?: boolean;
  /** What the member's role must allow to see the section (lib/members/permissions.ts); default: any member. */
  permission?: Permission;
}

/**
 * `shop`: the owner's daily work, first in the menu. `developers`: keys, the tag, origins,
 * webhooks, platform apps, secrets and the API behind each page — an area of its own, set apart
 * below the shop's groups.
 */
export type SiteArea = 'shop' | 'developers';

export interface SiteSectionGroup {
  label: string;
  area: SiteArea;
  sections: SiteSection[];
}

export const SITE_SECTION_GROUPS: SiteSectionGroup[] = [
  {
    label: 'Your shop',
    area: 'shop',
    sections: [
      { path: '', label: 'Overview' },
      { path: '/sessions', label: 'Visitors', nested: true },
      { path: '/leads', label: 'Leads', nested: true },
      { path: '/segments', label: 'Segments' },
      { path: '/conversations', label: 'Conversations', nested: true },
    ],
  },
  {
    label: 'Automation',
    area: 'shop',
    sections: [
      { path: '/sequences', label: 'Sequences', nested: true },
      { path: '/workflows', label: 'Workflows', nested: true },
      { path: '/commands', label: 'Commands' },
      { path: '/email', label: 'Email' },
      { path: '/finder', label: 'Finder' },
      { path: '/instances', label: 'Instances', nested: true },
    ],
  },
  {
    label: 'Settings',
    area: 'shop',
    sections: [
      { path: '/settings', label: 'Business settings', nested: true },
      { path: '/general', label: 'General' },
      { path: '/members', label: 'Members' },
      { path: '/properties', label: 'Lead properties' },
      { path: '/goals', label: 'Goals' },
      { path: '/annotations', label: 'Annotations' },
      { path: '/sharing', label: 'Shared dashboards' },
      { path: '/reports', label: 'Email reports' },
    ],
  },
  {
    label: 'Developers',
    area: 'developers',
    sections: [
      { path: '/developers', label: 'API for each page' },
      { path: '/keys', label: 'API keys', nested: true, permission: 'keys.manage' },
      { path: '/snippet', label: 'Tracking snippet' },
      { path: '/origins', label: 'Allowed origins' },
      { path: '/webhooks', label: 'Webhooks', permission: 'webhooks.manage' },
      { path: '/platform', label: 'Platform apps', permission: 'platform.manage' },
      { path: '/secrets', label: 'Secrets', permission: 'secrets.manage' },
    ],
  },
];

/** Every section, in menu order. */
export const SITE_SECTIONS: SiteSection[] = SITE_SECTION_GROUPS.flatMap((g) => g.sections);
