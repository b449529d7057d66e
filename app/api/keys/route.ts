import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { routeGroup } from '@/lib/http/route-group';
import {
  createKeyBodySchema,
  CreatedKeySchema,
  KeySchema,
  listKeysQuerySchema,
  revokeKeyQuerySchema,
  RevokedKeySchema,
  updateKeyBodySchema,
} from '@/lib/keys/schema';
import { createKeyForUser, listKeysForUser, revokeKeyForUser, updateKeyForUser } from '@/lib/keys/service';

const route = routeGroup({ tags: ['API keys'], auth: policies.owner });

// POST /api/keys — create an API key for a site the user owns; the full key is returned once
export const POST = route({
  summary: 'Create an API key',
  permission: 'keys.manage',
  body: createKeyBodySchema,
  response: CreatedKeySchema,
  status: 201,
  errors: ['PLAN_LIMIT_REACHED'],
  handler: ({ principal, siteId, body }) => createKeyForUser(principal.user, siteId!, body),
});

// GET /api/keys — list a site's keys (never the key itself)
export const GET = route({
  summary: 'List API keys of a site',
  permission: 'keys.manage',
  query: listKeysQuerySchema,
  response: z.array(KeySchema),
  handler: ({ principal, siteId, query }) => listKeysForUser(principal.user, siteId!, query.user_id),
});

// PATCH /api/keys — change a key's scopes; every instance applies them before the answer
export const PATCH = route({
  summary: 'Change the scopes of an API key',
  description:
    'Replaces the scopes of a key that is not revoked. When the answer arrives, no instance of the service grants the old scopes any more ' +
    '(a key lowered to `read` is refused on write routes from the next request on, wherever it lands).',
  body: updateKeyBodySchema,
  response: KeySchema,
  errors: ['NOT_FOUND', 'CONFLICT'],
  handler: ({ principal, siteId, body }) => updateKeyForUser(principal.user, siteId!, body),
});

// DELETE /api/keys — revoke a key; no instance accepts it once this answers
export const DELETE = route({
  summary: 'Revoke an API key',
  description: 'When the answer arrives, no instance of the service accepts the key any more.',
  permission: 'keys.manage',
  query: revokeKeyQuerySchema,
  response: RevokedKeySchema,
  envelope: 'bare',
  errors: ['NOT_FOUND'],
  handler: ({ principal, siteId, query }) => revokeKeyForUser(principal.user, siteId!, query.id, query.user_id),
});
