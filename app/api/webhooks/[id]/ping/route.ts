import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { endpointIdParams, PingResultSchema, siteBodySchema } from '@/lib/webhooks/schema';
import { pingEndpoint } from '@/lib/webhooks/service';

// POST /api/webhooks/{id}/ping — send a `webhook.ping` event to this endpoint
export const POST = defineRoute({
  summary: 'Send a test event to a webhook endpoint',
  description: 'Queues a `webhook.ping` delivery to this endpoint only; follow it in GET /api/webhooks/deliveries/{id}.',
  tags: ['Webhooks'],
  auth: policies.keyWrite,
  params: endpointIdParams,
  body: siteBodySchema,
  response: PingResultSchema,
  status: 202,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params }) => pingEndpoint(siteId, params.id),
});
