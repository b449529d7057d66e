import { revokeSharedLink, RevokedSharedLinkSchema, sharePathSchema } from '@/lib/analytics/shares';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';

// DELETE /sites/{site_id}/shared-links/{link_id} — revoke a shared link: its page answers 404 from then on
export const DELETE = defineRoute({
  summary: 'Revoke a shared dashboard link',
  tags: ['Analytics'],
  auth: policies.siteKey,
  params: sharePathSchema,
  response: RevokedSharedLinkSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params }) => revokeSharedLink(siteId, params.link_id),
});
