import { z } from 'zod';
import { defineRoute } from '@/lib/http/define-route';
import {
  createPlatformKeyBodySchema,
  CreatedPlatformKeySchema,
  listPlatformKeysQuerySchema,
  PlatformKeySchema,
  sitePathSchema,
} from '@/lib/platform/schema';
import { createKeyForApp, listKeysOfSite } from '@/lib/platform/service';

const tags = ['Platform apps and keys'];
const auth = { kind: 'session' } as const;

// GET /api/sites/{site_id}/platform-keys — the site's platform keys (never the key itself)
export const GET = defineRoute({
  summary: 'List platform keys of a site',
  tags,
  auth,
  permission: 'platform.manage',
  params: sitePathSchema,
  query: listPlatformKeysQuerySchema,
  response: z.array(PlatformKeySchema),
  errors: ['NOT_FOUND'],
  handler: ({ siteId, query }) => listKeysOfSite(siteId!, query.app_id),
});

// POST /api/sites/{site_id}/platform-keys — create a platform key for an app; the full key is returned once
export const POST = defineRoute({
  summary: 'Create a platform key',
  description:
    'A key bound to one app of the site, with capability scopes (leads.read, leads.write, tracking.event.write, email.send, ' +
    'email.send.test-only, db.migrate). The full key (`sgp_pk_…`) is in this response only; only its SHA-256 is stored. ' +
    'An app of another site is 404.',
  tags,
  auth,
  permission: 'platform.manage',
  params: sitePathSchema,
  body: createPlatformKeyBodySchema,
  response: CreatedPlatformKeySchema,
  status: 201,
  errors: ['NOT_FOUND'],
  handler: ({ principal, siteId, body }) => createKeyForApp(siteId!, principal.user.id, body),
});
