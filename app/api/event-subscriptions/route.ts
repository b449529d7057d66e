import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { routeGroup } from '@/lib/http/route-group';
import { createSubscriptionBodySchema, DeletedSchema, siteQuerySchema, subscriptionQuerySchema, SubscriptionSchema } from '@/lib/webhooks/schema';
import { deleteSubscription, listSubscriptions } from '@/lib/webhooks/service';
import { createSubscription } from '@/lib/workflows/change-events';

const route = routeGroup({ tags: ['Webhooks'], auth: policies.keyWrite });

// POST /api/event-subscriptions — start a workflow when POST /api/workflow/webhook receives a matching change event
export const POST = route({
  summary: 'Subscribe a workflow to inbound change events',
  body: createSubscriptionBodySchema,
  response: SubscriptionSchema,
  status: 201,
  handler: ({ siteId, body }) => createSubscription(siteId, body),
});

// GET /api/event-subscriptions — the site's inbound subscriptions
export const GET = route({
  summary: 'List inbound change-event subscriptions',
  auth: policies.keyRead,
  query: siteQuerySchema,
  response: z.array(SubscriptionSchema),
  handler: ({ siteId }) => listSubscriptions(siteId),
});

// DELETE /api/event-subscriptions — remove a subscription
export const DELETE = route({
  summary: 'Delete an inbound change-event subscription',
  query: subscriptionQuerySchema,
  response: DeletedSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, query }) => deleteSubscription(siteId, query.id),
});
