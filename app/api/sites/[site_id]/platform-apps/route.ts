import { z } from 'zod';
import { platformManageRoute } from '@/lib/http/site-routes';
import { AppSchema, createAppBodySchema } from '@/lib/platform/schema';
import { createAppOf, listApps } from '@/lib/platform/service';

// GET /api/sites/{site_id}/platform-apps — the site's generated apps
export const GET = platformManageRoute({
  summary: 'List platform apps of a site',
  response: z.array(AppSchema),
  handler: ({ siteId }) => listApps(siteId!),
});

// POST /api/sites/{site_id}/platform-apps — register a generated app (its tenant schema is app_<short_id>)
export const POST = platformManageRoute({
  summary: 'Create a platform app',
  description:
    'A generated application of the site. Its short id (16 lower-case base32 characters) is chosen once; its tenant schema is `app_<short_id>`.',
  body: createAppBodySchema,
  response: AppSchema,
  status: 201,
  errors: ['PLAN_LIMIT_REACHED'],
  handler: ({ siteId, body }) => createAppOf(siteId!, body.name),
});
