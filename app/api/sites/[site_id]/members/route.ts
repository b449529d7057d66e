import { policies } from '@/lib/http/auth/policies';
import { requestOrigin } from '@/lib/http/request-origin';
import { routeGroup } from '@/lib/http/route-group';
import { TeamSchema, InvitationSchema, inviteMemberBodySchema } from '@/lib/members/schema';
import { inviteMember, teamOf } from '@/lib/members/service';
import { sitePathSchema } from '@/lib/sites/schema';

const route = routeGroup({ tags: ['Members'], auth: policies.owner, params: sitePathSchema });

// GET /api/sites/{site_id}/members — the site's members with their roles, and its pending invitations
export const GET = route({
  summary: 'List members and pending invitations',
  description:
    'Every member of the site (`user_id`, `email`, `name`, `role`; the owner first) and the invitations not yet accepted, ' +
    'revoked or expired. Any member may read the team.',
  permission: 'site.read',
  response: TeamSchema,
  handler: ({ siteId }) => teamOf(siteId!),
});

// POST /api/sites/{site_id}/members — invite a person by mail, with a role
export const POST = route({
  summary: 'Invite a member',
  description:
    'Mails a link (`/invitations/accept?token=…`, single use, 7 days) to `email`; the person accepts it signed in with an ' +
    'account of that address (or signs up for one from the link). An open invitation to the same address is replaced: ' +
    'its link stops working. `role` is admin, member or viewer (a site gets a new owner by hand-over only). Members and ' +
    'pending invitations count toward the plan’s `members_per_site` (403 PLAN_LIMIT_REACHED); an address that already ' +
    'belongs to a member is 409.',
  permission: 'members.manage',
  body: inviteMemberBodySchema,
  response: InvitationSchema,
  status: 201,
  errors: ['CONFLICT', 'PLAN_LIMIT_REACHED', 'PROVIDER_ERROR'],
  handler: ({ principal, siteId, body, req }) => inviteMember(siteId!, principal.user, body, requestOrigin(req)),
});
