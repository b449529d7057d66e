import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { MessageSchema, platformKeyPathSchema } from '@/lib/platform/schema';
import { revokeKeyOfSite } from '@/lib/platform/service';

// DELETE /api/sites/{site_id}/platform-keys/{key_id} — revoke a platform key; it stops working on the next request
export const DELETE = defineRoute({
  summary: 'Revoke a platform key',
  tags: ['Platform apps and keys'],
  auth: policies.owner,
  permission: 'platform.manage',
  params: platformKeyPathSchema,
  response: MessageSchema,
  envelope: 'bare',
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params }) => revokeKeyOfSite(siteId!, params.key_id),
});
