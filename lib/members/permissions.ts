import type { SiteRole } from '@/lib/core/principal';

/**
 * Who may do what on a site: the one table of permissions. Every session route declares the
 * permission it needs (or takes its method's default, `defaultPermission`), the session strategy
 * checks the caller's role against this table, and the console's pages and actions read it too.
 * API keys are not members: their read/write scopes decide for them.
 */
// The roles, highest first, are the principal's list (the sites' schemas name them too).
export { SITE_ROLES as ROLES } from '@/lib/core/principal';
export type { SiteRole };

export const PERMISSIONS = [
  /** Read what the site holds: leads, visitors, analytics, conversations, settings, the team. */
  'site.read',
  /** CRM and day-to-day work: leads, segments, requirements, conversations, replies, commands, workflows, robots, sequences. */
  'crm.write',
  /** Erase a person: a lead or visitor with everything stored about them (owner and admins). */
  'people.erase',
  /** The site's settings: name and domain, allowed origins, business settings, email sender, mailbox, test recipients. */
  'settings.manage',
  /** API keys: list, create, revoke, read their usage. */
  'keys.manage',
  /** Webhook endpoints, their deliveries and change-event subscriptions. */
  'webhooks.manage',
  /** Platform apps, platform keys and their audit log. */
  'platform.manage',
  /** Secure tokens (stored secrets) and their audit log. */
  'secrets.manage',
  /** Invite, change and remove members other than the owner; revoke invitations. */
  'members.manage',
  /** Delete the site with everything it holds. */
  'site.delete',
  /** Hand the site over to another member. */
  'ownership.transfer',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const ADMIN: readonly Permission[] = PERMISSIONS.filter((p) => p !== 'site.delete' && p !== 'ownership.transfer');

export const ROLE_PERMISSIONS: Record<SiteRole, readonly Permission[]> = {
  owner: PERMISSIONS,
  admin: ADMIN,
  member: ['site.read', 'crm.write'],
  viewer: ['site.read'],
};

export const can = (role: SiteRole | undefined, permission: Permission): boolean => role !== undefined && ROLE_PERMISSIONS[role].includes(permission);

/** What a route needs when it declares nothing: reading for GET, the settings permission for any change. */
export const defaultPermission = (method: string): Permission => (method === 'GET' || method === 'HEAD' ? 'site.read' : 'settings.manage');

/** The roles an invitation or a role change may give (the owner is made by hand-over only). */
export const ASSIGNABLE_ROLES = ['admin', 'member', 'viewer'] as const satisfies readonly SiteRole[];

/** Roles that outrank: an admin manages members below the owner, never the owner. */
export const RANK: Record<SiteRole, number> = { owner: 3, admin: 2, member: 1, viewer: 0 };
