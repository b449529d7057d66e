import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { DeliverySchema, listDeliveriesQuerySchema } from '@/lib/webhooks/schema';
import { listDeliveries } from '@/lib/webhooks/service';

// GET /api/webhooks/deliveries — the site's recent deliveries, newest first
export const GET = defineRoute({
  summary: 'List webhook deliveries',
  tags: ['Webhooks'],
  auth: policies.keyRead,
  query: listDeliveriesQuerySchema,
  response: z.array(DeliverySchema),
  errors: ['NOT_FOUND'],
  handler: ({ siteId, query }) => listDeliveries(siteId, query),
});
