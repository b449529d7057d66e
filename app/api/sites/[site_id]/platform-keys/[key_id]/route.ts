import { platformManageRoute } from '@/lib/http/site-routes';
import { MessageSchema, platformKeyPathSchema } from '@/lib/platform/schema';
import { revokeKeyOfSite } from '@/lib/platform/service';

// DELETE /api/sites/{site_id}/platform-keys/{key_id} — revoke a platform key; it stops working on the next request
export const DELETE = platformManageRoute({
  summary: 'Revoke a platform key',
  params: platformKeyPathSchema,
  response: MessageSchema,
  envelope: 'bare',
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params }) => revokeKeyOfSite(siteId!, params.key_id),
});
