import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { changeRoleBodySchema, MemberSchema, memberPathSchema, RemovedMemberSchema } from '@/lib/members/schema';
import { changeMemberRole, removeMember } from '@/lib/members/service';

const tags = ['Members'];

// PATCH /api/sites/{site_id}/members/{user_id} — change a member's role, or hand the site over (role: owner)
export const PATCH = defineRoute({
  summary: "Change a member's role or hand the site over",
  description:
    'Owners and admins change the role of any member but the owner. `role: owner` hands the site over (the owner only): ' +
    'the member becomes the owner and the old owner an admin, in one step. The owner’s own role changes only that way, ' +
    'so a site always has one owner (403 otherwise).',
  tags,
  auth: policies.owner,
  permission: 'members.manage',
  params: memberPathSchema,
  body: changeRoleBodySchema,
  response: MemberSchema,
  errors: ['NOT_FOUND', 'CONFLICT'],
  handler: ({ principal, siteId, params, body }) => changeMemberRole(siteId!, principal.user, params.user_id, body.role),
});

// DELETE /api/sites/{site_id}/members/{user_id} — remove a member, or leave the site (your own user_id)
export const DELETE = defineRoute({
  summary: 'Remove a member or leave a site',
  description:
    'With your own `user_id`: you leave the site (any role but the owner). Otherwise owners and admins remove any member ' +
    'but the owner. Access ends with the next request, on every instance: each request reads the role. The owner cannot ' +
    'be removed nor leave before handing the site over (403).',
  tags,
  auth: policies.owner,
  permission: 'site.read',
  params: memberPathSchema,
  response: RemovedMemberSchema,
  errors: ['NOT_FOUND'],
  handler: ({ principal, siteId, params }) => removeMember(siteId!, principal.user, params.user_id),
});
