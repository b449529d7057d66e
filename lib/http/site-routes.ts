import { z } from 'zod';
import { siteIdSchema } from '@/lib/core/schemas';
import { sitePathSchema } from '@/lib/platform/schema';
import { policies } from './auth/policies';
import { routeGroup } from './route-group';

/*
 * The console's route groups under /api/sites/{site_id}: a signed-in member of the site named in
 * the path, whose role must allow each route's permission.
 */

/** The site's email: sender identity, mailbox, test recipients, suppression list, email log. */
export const siteEmailRoute = routeGroup({ tags: ['Email'], auth: policies.owner, params: sitePathSchema });

/** The site's platform apps, keys and audit log: a role that manages the platform (`platform.manage`). */
export const platformManageRoute = routeGroup({
  tags: ['Platform apps and keys'],
  auth: policies.owner,
  permission: 'platform.manage',
  params: sitePathSchema,
});

/** A site's analytics, goals, annotations and shared links under /sites/{site_id}: a key of that site (x-api-key); writes name their own policy. */
export const analyticsRoute = routeGroup({ tags: ['Analytics'], auth: policies.siteKey, params: z.object({ site_id: siteIdSchema }) });
