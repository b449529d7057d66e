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

export const SITE_SECTION_GROUPS: { label: string; sections: SiteSection[] }[] = [
  {
    label: 'Analytics',
    sections: [
      { path: '', label: 'Overview' },
      { path: '/sessions', label: 'Visitors & sessions', nested: true },
    ],
  },
  {
    label: 'CRM',
    sections: [
      { path: '/leads', label: 'Leads', nested: true },
      { path: '/segments', label: 'Segments' },
      { path: '/conversations', label: 'Conversations', nested: true },
    ],
  },
  {
    label: 'Automation',
    sections: [
      { path: '/commands', label: 'Commands' },
      { path: '/workflows', label: 'Workflows', nested: true },
      { path: '/instances', label: 'Instances', nested: true },
      { path: '/finder', label: 'Finder' },
      { path: '/email', label: 'Email' },
    ],
  },
  {
    label: 'Developers',
    sections: [
      { path: '/keys', label: 'API keys', nested: true, permission: 'keys.manage' },
      { path: '/snippet', label: 'Tracking snippet' },
      { path: '/origins', label: 'Allowed origins' },
      { path: '/webhooks', label: 'Webhooks', permission: 'webhooks.manage' },
      { path: '/platform', label: 'Platform apps', permission: 'platform.manage' },
      { path: '/secrets', label: 'Secrets', permission: 'secrets.manage' },
    ],
  },
  {
    label: 'Settings',
    sections: [
      { path: '/settings', label: 'Settings', nested: true },
      { path: '/general', label: 'General' },
      { path: '/members', label: 'Members' },
    ],
  },
];

/** Every section, in menu order. */
export const SITE_SECTIONS: SiteSection[] = SITE_SECTION_GROUPS.flatMap((g) => g.sections);
