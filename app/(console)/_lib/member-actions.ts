'use server';

import { z } from 'zod';
import { uuidSchema } from '@/lib/core/schemas';
import { acceptInvitationBodySchema, changeRoleBodySchema, inviteMemberBodySchema } from '@/lib/members/schema';
import { acceptInvitation, changeMemberRole, inviteMember, removeMember, revokeInvitationOf } from '@/lib/members/service';
import { actionGroup, defineAction } from './define-action';
import { text } from './forms';
import { publicOrigin } from './request-origin';

const members = actionGroup({ permission: 'members.manage', revalidate: ['/members'] });

/** Invites a person by mail, as POST /api/sites/{id}/members does. */
export const inviteMemberAction = members.action({
  schema: inviteMemberBodySchema,
  input: (form) => ({ email: text(form, 'email'), role: text(form, 'role') }),
  run: async ({ site, user, input }) => (await inviteMember(site.id, user, input, await publicOrigin())).email,
  errorField: (error) => (error.code === 'CONFLICT' ? 'email' : 'form'),
});

/** Changes a member's role (`owner` hands the site over), as PATCH /api/sites/{id}/members/{user_id} does. */
export const changeRoleAction = members.action({
  schema: changeRoleBodySchema.extend({ user_id: uuidSchema }),
  run: async ({ site, user, input }) => (await changeMemberRole(site.id, user, input.user_id, input.role)).role,
  revalidate: () => [{ layout: '' }],
});

/** Removes another member, as DELETE /api/sites/{id}/members/{user_id} does. */
export const removeMemberAction = members.idAction('user_id', ({ site, user }, id) => removeMember(site.id, user, id));

/** Leaves the site (any role but the owner), as DELETE /api/sites/{id}/members/{own user_id} does; then the site list. */
export const leaveSiteAction = defineAction({
  permission: 'site.read',
  schema: z.object({}),
  run: async ({ site, user }) => {
    await removeMember(site.id, user, user.id);
  },
  revalidate: () => [{ layout: '/console' }],
  redirect: () => '/console',
});

/** Revokes a pending invitation, as DELETE /api/sites/{id}/invitations/{id} does. */
export const revokeInvitationAction = members.idAction('id', ({ site, user }, id) => revokeInvitationOf(site.id, user, id));

/** Accepts an invitation for the signed-in account, as POST /api/invitations/accept does; then opens the site. */
export const acceptInvitationAction = defineAction({
  access: 'user',
  schema: acceptInvitationBodySchema,
  run: ({ user, input }) => acceptInvitation(user, input.token),
  revalidate: () => [{ layout: '/console' }],
  redirect: (result) => `/console/sites/${result.site_id}`,
});
