import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { AuditEntrySchema, auditQuerySchema, sitePathSchema } from '@/lib/platform/schema';
import { auditOfSite } from '@/lib/platform/service';

// GET /api/sites/{site_id}/platform-audit — every platform call of the site's apps, refused ones included
export const GET = defineRoute({
  summary: 'Platform API audit log',
  description:
    'Every call made with a platform key of the site, newest first: key, app, method, path, the capability it needed, the ' +
    'status and error code — calls refused for a revoked or expired key, a missing capability, a spent quota or bad input ' +
    'included. Never request bodies. `meta` carries `{total, limit, offset, has_more}`.',
  tags: ['Platform apps and keys'],
  auth: policies.owner,
  permission: 'platform.manage',
  params: sitePathSchema,
  query: auditQuerySchema,
  response: z.array(AuditEntrySchema),
  errors: ['NOT_FOUND'],
  handler: async ({ siteId, query, res }) => {
    const { items, meta } = await auditOfSite(siteId!, query);
    res.meta = meta;
    return items;
  },
});
