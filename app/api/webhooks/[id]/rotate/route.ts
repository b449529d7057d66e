import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { CreatedEndpointSchema, endpointIdParams, rotateSecretBodySchema } from '@/lib/webhooks/schema';
import { rotateEndpointSecret } from '@/lib/webhooks/service';

// POST /api/webhooks/{id}/rotate — a new signing secret (returned once); the old one signs too during the grace period
export const POST = defineRoute({
  summary: 'Rotate the signing secret of a webhook endpoint',
  description: 'During `grace_seconds` (default 24 h) deliveries carry two signatures in `webhook-signature`, one per secret.',
  tags: ['Webhooks'],
  auth: policies.keyWrite,
  params: endpointIdParams,
  body: rotateSecretBodySchema,
  response: CreatedEndpointSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params, body }) => rotateEndpointSecret(siteId, params.id, body.grace_seconds),
});
