import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { deliveryIdParams, DeliveryWithAttemptsSchema, siteQuerySchema } from '@/lib/webhooks/schema';
import { getDelivery } from '@/lib/webhooks/service';

// GET /api/webhooks/deliveries/{id} — one delivery with every attempt (status, duration, error)
export const GET = defineRoute({
  summary: 'Get a webhook delivery and its attempts',
  tags: ['Webhooks'],
  auth: policies.keyRead,
  params: deliveryIdParams,
  query: siteQuerySchema,
  response: DeliveryWithAttemptsSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params }) => getDelivery(siteId, params.id),
});
