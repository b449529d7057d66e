import { z } from 'zod';
import { platformManageRoute } from '@/lib/http/site-routes';
import { createPlatformKeyBodySchema, CreatedPlatformKeySchema, listPlatformKeysQuerySchema, PlatformKeySchema } from '@/lib/platform/schema';
import { createKeyForApp, listKeysOfSite } from '@/lib/platform/service';

// GET /api/sites/{site_id}/platform-keys — the site's platform keys (never the key itself)
export const GET = platformManageRoute({
  summary: 'List platform keys of a site',
  query: listPlatformKeysQuerySchema,
  response: z.array(PlatformKeySchema),
  errors: ['NOT_FOUND'],
  handler: ({ siteId, query }) => listKeysOfSite(siteId!, query.app_id),
});

// POST /api/sites/{site_id}/platform-keys — create a platform key for an app; the full key is returned once
export const POST = platformManageRoute({
  summary: 'Create a platform key',
  description:
    'A key bound to one app of the site, with capability scopes (leads.read, leads.write, tracking.event.write, email.send, ' +
    'email.send.test-only, db.migrate). The full key (`sgp_pk_…`) is in this response only; only its SHA-256 is stored. ' +
    'An app of another site is 404.',
  body: createPlatformKeyBodySchema,
  response: CreatedPlatformKeySchema,
  status: 201,
  errors: ['NOT_FOUND'],
  handler: ({ principal, siteId, body }) => createKeyForApp(siteId!, principal.user.id, body),
});
