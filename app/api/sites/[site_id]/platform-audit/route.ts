import { z } from 'zod';
import { withMeta } from '@/lib/http/route-group';
import { platformManageRoute } from '@/lib/http/site-routes';
import { AuditEntrySchema, auditQuerySchema } from '@/lib/platform/schema';
import { auditOfSite } from '@/lib/platform/service';

// GET /api/sites/{site_id}/platform-audit — every platform call of the site's apps, refused ones included
export const GET = platformManageRoute({
  summary: 'Platform API audit log',
  description:
    'Every call made with a platform key of the site, newest first: key, app, method, path, the capability it needed, the ' +
    'status and error code — calls refused for a revoked or expired key, a missing capability, a spent quota or bad input ' +
    'included. Never request bodies. `meta` carries `{total, limit, offset, has_more}`.',
  query: auditQuerySchema,
  response: z.array(AuditEntrySchema),
  errors: ['NOT_FOUND'],
  handler: ({ siteId, query, res }) => withMeta(res, auditOfSite(siteId!, query)),
});
