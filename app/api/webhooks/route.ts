import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { routeGroup } from '@/lib/http/route-group';
import {
  createEndpointBodySchema,
  CreatedEndpointSchema,
  DeletedSchema,
  EndpointSchema,
  endpointQuerySchema,
  siteQuerySchema,
} from '@/lib/webhooks/schema';
import { createEndpoint, deleteEndpoint, listEndpoints } from '@/lib/webhooks/service';

const route = routeGroup({ tags: ['Webhooks'], auth: policies.keyWrite });

// POST /api/webhooks — register an endpoint for the site's events; the signing secret is returned once
export const POST = route({
  summary: 'Create a webhook endpoint',
  description:
    'Events are POSTed as `{id, type, created_at, site_id, data}`, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, ' +
    '`webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with the returned `whsec_` secret). The URL must be https and ' +
    'resolve to a public address. docs/PRODUCT.md "Events and webhooks".',
  body: createEndpointBodySchema,
  response: CreatedEndpointSchema,
  status: 201,
  errors: ['PLAN_LIMIT_REACHED'],
  handler: ({ siteId, body }) => createEndpoint(siteId, body),
});

// GET /api/webhooks — the site's endpoints (never their secrets)
export const GET = route({
  summary: 'List webhook endpoints',
  auth: policies.keyRead,
  query: siteQuerySchema,
  response: z.array(EndpointSchema),
  handler: ({ siteId }) => listEndpoints(siteId),
});

// DELETE /api/webhooks — remove an endpoint and its deliveries
export const DELETE = route({
  summary: 'Delete a webhook endpoint',
  query: endpointQuerySchema,
  response: DeletedSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, query }) => deleteEndpoint(siteId, query.id),
});
