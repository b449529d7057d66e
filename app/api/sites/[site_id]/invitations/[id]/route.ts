import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { invitationPathSchema, RevokedInvitationSchema } from '@/lib/members/schema';
import { revokeInvitationOf } from '@/lib/members/service';

// DELETE /api/sites/{site_id}/invitations/{id} — revoke a pending invitation; its link stops working
export const DELETE = defineRoute({
  summary: 'Revoke an invitation',
  description: 'The link of a pending invitation stops working at once (404 for one already accepted, revoked or of another site).',
  tags: ['Members'],
  auth: policies.owner,
  permission: 'members.manage',
  params: invitationPathSchema,
  response: RevokedInvitationSchema,
  errors: ['NOT_FOUND'],
  handler: ({ principal, siteId, params }) => revokeInvitationOf(siteId!, principal.user, params.id),
});
