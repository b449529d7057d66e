import { z } from 'zod';
import { paginationMeta, paginationQuerySchema } from '@/lib/core/schemas';
import { emailAddressSchema, SuppressionSchema } from '@/lib/email/schema';
import { removeSuppression, suppressionList } from '@/lib/email/service';
import { defineRoute } from '@/lib/http/define-route';
import { MessageSchema, sitePathSchema } from '@/lib/platform/schema';

const tags = ['Email'];
const auth = { kind: 'session' } as const;

// GET /api/sites/{site_id}/email-suppressions — addresses the site never writes to
export const GET = defineRoute({
  summary: 'Suppression list of a site',
  description:
    'Addresses that unsubscribed (the one-click link every message to one person carries) or bounced. Every send of the site ' +
    'skips them: a workflow fails with RECIPIENT_SUPPRESSED, the platform API answers 422. `meta` carries `{total, limit, offset, has_more}`.',
  tags,
  auth,
  permission: 'site.read',
  params: sitePathSchema,
  query: paginationQuerySchema,
  response: z.array(SuppressionSchema),
  handler: async ({ siteId, query, res }) => {
    const { items, total } = await suppressionList(siteId!, query);
    res.meta = paginationMeta(total, query.limit, query.offset);
    return items;
  },
});

// DELETE /api/sites/{site_id}/email-suppressions — write to an address again (the owner's decision)
export const DELETE = defineRoute({
  summary: 'Remove an address from the suppression list',
  tags,
  auth,
  permission: 'settings.manage',
  params: sitePathSchema,
  query: z.strictObject({ email: emailAddressSchema }),
  response: MessageSchema,
  envelope: 'bare',
  errors: ['NOT_FOUND'],
  handler: ({ siteId, query }) => removeSuppression(siteId!, query.email),
});
