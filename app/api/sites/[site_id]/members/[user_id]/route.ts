import { policies } from '@/lib/http/auth/policies';
import { routeGroup } from '@/lib/http/route-group';
import { changeRoleBodySchema, MemberSchema, memberPathSchema, RemovedMemberSchema } from '@/lib/members/schema';
import { changeMemberRole, removeMember } from '@/lib/members/service';

const route = routeGroup({ tags: ['Members'], auth: policies.owner, params: memberPathSchema });

// PATCH /api/sites/{site_id}/members/{user_id} — change a member's role, or hand the site over (role: owner)
export const PATCH = route({
  summary: "Change a member's role or hand the site over",
  description:
    'Owners and admins change the role of any member but the owner. `role: owner` hands the site over (the owner only): ' +
    'the member becomes the owner and the old owner an admin, in one step. The owner’s own role changes only that way, ' +
    'so a site always has one owner (403 otherwise).',
  permission: 'members.manage',
  body: changeRoleBodySchema,
  response: MemberSchema,
  errors: ['NOT_FOUND', 'CONFLICT'],
  handler: ({ principal, siteId, params, body }) => changeMemberRole(siteId!, principal.user, params.user_id, body.role),
});

// DELETE /api/sites/{site_id}/members/{user_id} — remove a member, or leave the site (your own user_id)
export const DELETE = route({
  summary: 'Remove a member or leave a site',
  description:
    'With your own `user_id`: you leave the site (any role but the owner). Otherwise owners and admins remove any member ' +
    'but the owner. Access ends with the next request, on every instance: each request reads the role. The owner cannot ' +
    'be removed nor leave before handing the site over (403).',
  permission: 'site.read',
  response: RemovedMemberSchema,
  errors: ['NOT_FOUND'],
  handler: ({ principal, siteId, params }) => removeMember(siteId!, principal.user, params.user_id),
});
