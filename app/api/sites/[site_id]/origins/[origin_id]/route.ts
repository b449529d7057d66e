import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { siteOriginItemPathSchema } from '@/lib/sites/schema';
import { removeOrigin } from '@/lib/sites/service';

// DELETE /api/sites/{site_id}/origins/{origin_id} — stop allowing an origin; effective on the next request
export const DELETE = defineRoute({
  summary: 'Remove an allowed origin',
  tags: ['Allowed origins'],
  auth: policies.owner,
  permission: 'settings.manage',
  params: siteOriginItemPathSchema,
  response: z.object({ message: z.string() }),
  envelope: 'bare',
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params }) => removeOrigin(siteId!, params.origin_id),
});
