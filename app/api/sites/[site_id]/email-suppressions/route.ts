import { z } from 'zod';
import { paginationQuerySchema } from '@/lib/core/schemas';
import { emailAddressSchema, SuppressionSchema } from '@/lib/email/schema';
import { removeSuppression, suppressionList } from '@/lib/email/service';
import { withPageMeta } from '@/lib/http/route-group';
import { siteEmailRoute } from '@/lib/http/site-routes';
import { MessageSchema } from '@/lib/platform/schema';

// GET /api/sites/{site_id}/email-suppressions — addresses the site never writes to
export const GET = siteEmailRoute({
  summary: 'Suppression list of a site',
  description:
    'Addresses that unsubscribed (the one-click link every message to one person carries) or bounced. Every send of the site ' +
    'skips them: a workflow fails with RECIPIENT_SUPPRESSED, the platform API answers 422. `meta` carries `{total, limit, offset, has_more}`.',
  permission: 'site.read',
  query: paginationQuerySchema,
  response: z.array(SuppressionSchema),
  handler: ({ siteId, query, res }) => withPageMeta(res, query, suppressionList(siteId!, query)),
});

// DELETE /api/sites/{site_id}/email-suppressions — write to an address again (the owner's decision)
export const DELETE = siteEmailRoute({
  summary: 'Remove an address from the suppression list',
  permission: 'settings.manage',
  query: z.strictObject({ email: emailAddressSchema }),
  response: MessageSchema,
  envelope: 'bare',
  errors: ['NOT_FOUND'],
  handler: ({ siteId, query }) => removeSuppression(siteId!, query.email),
});
