import { z } from 'zod';
import { paginationQuerySchema } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { withPageMeta } from '@/lib/http/route-group';
import { sitePathSchema } from '@/lib/sites/schema';
import { AccountEventSchema } from '@/lib/users/schema';
import { siteAccountEvents } from '@/lib/users/service';

// GET /api/sites/{site_id}/audit — the site's team audit log (invitations, role changes, removals), newest first
export const GET = defineRoute({
  summary: "The site's team audit log",
  description:
    'What its members did to the team, newest first: invitations sent, accepted and revoked, role changes, removals and the hand-over of ' +
    'ownership — each with the member who did it (`user_id`) and small facts in `detail`. Owner and admins. `meta` carries `{total, limit, offset, has_more}`.',
  tags: ['Members'],
  auth: policies.owner,
  permission: 'members.manage',
  params: sitePathSchema,
  query: paginationQuerySchema,
  response: z.array(AccountEventSchema),
  handler: ({ siteId, query, res }) => withPageMeta(res, query, siteAccountEvents(siteId!, query)),
});
