import { z } from 'zod';
import { defineRoute } from '@/lib/http/define-route';
import { createSubscriptionBodySchema, DeletedSchema, siteQuerySchema, subscriptionQuerySchema, SubscriptionSchema } from '@/lib/webhooks/schema';
import { createSubscription, deleteSubscription, listSubscriptions } from '@/lib/webhooks/service';

const tags = ['Webhooks'];
const headers = ['bearer', 'x-api-key'] as const;

// POST /api/event-subscriptions — start a workflow when POST /api/workflow/webhook receives a matching change event
export const POST = defineRoute({
  summary: 'Subscribe a workflow to inbound change events',
  tags,
  auth: { kind: 'apiKey', headers: [...headers], scope: 'write' },
  body: createSubscriptionBodySchema,
  response: SubscriptionSchema,
  status: 201,
  handler: ({ siteId, body }) => createSubscription(siteId, body),
});

// GET /api/event-subscriptions — the site's inbound subscriptions
export const GET = defineRoute({
  summary: 'List inbound change-event subscriptions',
  tags,
  auth: { kind: 'apiKey', headers: [...headers], scope: 'read' },
  query: siteQuerySchema,
  response: z.array(SubscriptionSchema),
  handler: ({ siteId }) => listSubscriptions(siteId),
});

// DELETE /api/event-subscriptions — remove a subscription
export const DELETE = defineRoute({
  summary: 'Delete an inbound change-event subscription',
  tags,
  auth: { kind: 'apiKey', headers: [...headers], scope: 'write' },
  query: subscriptionQuerySchema,
  response: DeletedSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, query }) => deleteSubscription(siteId, query.id),
});
