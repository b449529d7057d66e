import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { routeGroup, withMeta } from '@/lib/http/route-group';
import {
  createSecureTokenBodySchema,
  deleteSecureTokenQuerySchema,
  DeletedSecureTokenSchema,
  listSecureTokensQuerySchema,
  SecureTokenSchema,
} from '@/lib/secure-tokens/schema';
import { createSecureToken, listSiteSecureTokens, removeSecureToken } from '@/lib/secure-tokens/service';

const route = routeGroup({ tags: ['Secure tokens'], auth: policies.keyOrOwner, permission: 'secrets.manage' });

// A server with a write key of the site, or its owner in the console.

// POST /api/secure-tokens — store a secret for the site, encrypted; the value is never returned here
export const POST = route({
  summary: 'Store a secret',
  description: 'Encrypts the value (AES-256-GCM, a data key per secret wrapped by the master key). Answers its metadata only.',
  body: createSecureTokenBodySchema,
  response: SecureTokenSchema,
  status: 201,
  errors: ['CONFLICT', 'PLAN_LIMIT_REACHED', 'PROVIDER_NOT_CONFIGURED'],
  handler: ({ principal, siteId, body }) => createSecureToken(siteId, principal, body),
});

// GET /api/secure-tokens — the site's secrets: metadata only, never values
export const GET = route({
  summary: 'List secrets of a site (metadata only)',
  query: listSecureTokensQuerySchema,
  response: z.array(SecureTokenSchema),
  handler: ({ siteId, query, res }) => withMeta(res, listSiteSecureTokens(siteId, query)),
});

// DELETE /api/secure-tokens — delete one of the site's secrets
export const DELETE = route({
  summary: 'Delete a secret',
  query: deleteSecureTokenQuerySchema,
  response: DeletedSecureTokenSchema,
  envelope: 'bare',
  errors: ['NOT_FOUND'],
  handler: ({ principal, siteId, query }) => removeSecureToken(siteId, principal, query.id),
});
