import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { createSubscriptionBodySchema, DeletedSchema, siteQuerySchema, subscriptionQuerySchema, SubscriptionSchema } from '@/lib/webhooks/schema';
import { createSubscription, deleteSubscription, listSubscriptions } from '@/lib/webhooks/service';

const tags = ['Webhooks'];

// POST /api/event-subscriptions — start a workflow when POST /api/workflow/webhook receives a matching change event
export const POST = defineRoute({
  summary: 'Subscribe a workflow to inbound change events',
  tags,
  auth: policies.keyWrite,
  body: createSubscriptionBodySchema,
  response: SubscriptionSchema,
  status: 201,
  handler: ({ siteId, body }) => createSubscription(siteId, body),
});

// GET /api/event-subscriptions — the site's inbound subscriptions
export const GET = defineRoute({
  summary: 'List inbound change-event subscriptions',
  tags,
  auth: policies.keyRead,
  query: siteQuerySchema,
  response: z.array(SubscriptionSchema),
  handler: ({ siteId }) => listSubscriptions(siteId),
});

// DELETE /api/event-subscriptions — remove a subscription
export const DELETE = defineRoute({
  summary: 'Delete an inbound change-event subscription',
  tags,
  auth: policies.keyWrite,
  query: subscriptionQuerySchema,
  response: DeletedSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, query }) => deleteSubscription(siteId, query.id),
});
