import { z } from 'zod';
import { defineRoute } from '@/lib/http/define-route';
import { createKeyBodySchema, CreatedKeySchema, KeySchema, listKeysQuerySchema, revokeKeyQuerySchema, RevokedKeySchema } from '@/lib/keys/schema';
import { createKeyForUser, listKeysForUser, revokeKeyForUser } from '@/lib/keys/service';

const tags = ['API keys'];
const auth = { kind: 'session' } as const;

// POST /api/keys — create an API key for a site the user owns; the full key is returned once
export const POST = defineRoute({
  summary: 'Create an API key',
  tags,
  auth,
  permission: 'keys.manage',
  body: createKeyBodySchema,
  response: CreatedKeySchema,
  status: 201,
  errors: ['PLAN_LIMIT_REACHED'],
  handler: ({ principal, siteId, body }) => createKeyForUser(principal.user, siteId!, body),
});

// GET /api/keys — list a site's keys (never the key itself)
export const GET = defineRoute({
  summary: 'List API keys of a site',
  tags,
  auth,
  permission: 'keys.manage',
  query: listKeysQuerySchema,
  response: z.array(KeySchema),
  handler: ({ principal, siteId, query }) => listKeysForUser(principal.user, siteId!, query.user_id),
});

// DELETE /api/keys — revoke a key; it stops working on the next request
export const DELETE = defineRoute({
  summary: 'Revoke an API key',
  tags,
  auth,
  permission: 'keys.manage',
  query: revokeKeyQuerySchema,
  response: RevokedKeySchema,
  envelope: 'bare',
  errors: ['NOT_FOUND'],
  handler: ({ principal, siteId, query }) => revokeKeyForUser(principal.user, siteId!, query.id, query.user_id),
});
