import { z } from 'zod';
import { defineRoute } from '@/lib/http/define-route';
import { AppSchema, createAppBodySchema, sitePathSchema } from '@/lib/platform/schema';
import { createAppOf, listApps } from '@/lib/platform/service';

const tags = ['Platform apps and keys'];
const auth = { kind: 'session' } as const;

// GET /api/sites/{site_id}/platform-apps — the site's generated apps
export const GET = defineRoute({
  summary: 'List platform apps of a site',
  tags,
  auth,
  permission: 'platform.manage',
  params: sitePathSchema,
  response: z.array(AppSchema),
  handler: ({ siteId }) => listApps(siteId!),
});

// POST /api/sites/{site_id}/platform-apps — register a generated app (its tenant schema is app_<short_id>)
export const POST = defineRoute({
  summary: 'Create a platform app',
  description:
    'A generated application of the site. Its short id (16 lower-case base32 characters) is chosen once; its tenant schema is `app_<short_id>`.',
  tags,
  auth,
  permission: 'platform.manage',
  params: sitePathSchema,
  body: createAppBodySchema,
  response: AppSchema,
  status: 201,
  errors: ['PLAN_LIMIT_REACHED'],
  handler: ({ siteId, body }) => createAppOf(siteId!, body.name),
});
