import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { deliveryIdParams, DeliverySchema, siteBodySchema } from '@/lib/webhooks/schema';
import { redeliver } from '@/lib/webhooks/service';

// POST /api/webhooks/deliveries/{id}/redeliver — send the event again (new delivery, same webhook-id)
export const POST = defineRoute({
  summary: 'Redeliver a webhook event',
  description: 'Queues a new delivery of the same event to the same endpoint, with a fresh retry schedule; `webhook-id` is unchanged.',
  tags: ['Webhooks'],
  auth: policies.keyWrite,
  params: deliveryIdParams,
  body: siteBodySchema,
  response: DeliverySchema,
  status: 202,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params }) => redeliver(siteId, params.id),
});
