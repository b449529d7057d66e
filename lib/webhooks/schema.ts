import { z } from 'zod';
import { isoTimestamp, siteIdSchema, uuidSchema } from '@/lib/core/schemas';
import { EVENT_TYPES } from './events';

/** Outbound endpoints, their deliveries, and inbound change-event subscriptions. */
export const eventTypeSchema = z.enum(EVENT_TYPES).describe(`Event type: ${EVENT_TYPES.join(', ')}`);

export const createEndpointBodySchema = z.strictObject({
  site_id: siteIdSchema,
  url: z.string().max(2048).describe('Where events are POSTed: https (http only to a host the operator allows); must resolve to a public address'),
  events: z.array(eventTypeSchema).min(1).max(EVENT_TYPES.length).describe('The event types this endpoint receives'),
  description: z.string().max(500).optional().describe('What the endpoint is for'),
  active: z.boolean().optional().describe('Receives events (default true)'),
});

/** What the console changes on an endpoint after its creation: its events, description and whether it is active. */
export const updateEndpointBodySchema = z.strictObject({
  events: createEndpointBodySchema.shape.events,
  description: z.string().max(500).nullable().describe('What the endpoint is for; null clears it'),
  active: z.boolean().describe('Receives events'),
});

export const EndpointSchema = z.object({
  id: uuidSchema,
  site_id: uuidSchema,
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.string()),
  active: z.boolean(),
  status: z
    .enum(['healthy', 'failing'])
    .describe(
      "failing: the endpoint's last delivery attempt (a ping's too) got no 2xx answer, retries may still follow; the next successful delivery clears it",
    ),
  failing_since: isoTimestamp.nullable(),
  previous_secret_expires_at: isoTimestamp.nullable().describe('Until then the secret before the last rotation also signs'),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
});
export type Endpoint = z.infer<typeof EndpointSchema>;

export const CreatedEndpointSchema = EndpointSchema.extend({
  secret: z.string().describe('Signing secret `whsec_<base64>`: shown only now'),
});

export const siteQuerySchema = z.strictObject({ site_id: siteIdSchema });
export const endpointQuerySchema = z.strictObject({ site_id: siteIdSchema, id: uuidSchema.describe('Endpoint id') });
export const endpointIdParams = z.object({ id: uuidSchema.describe('Endpoint id') });
export const deliveryIdParams = z.object({ id: uuidSchema.describe('Delivery id') });
export const siteBodySchema = z.strictObject({ site_id: siteIdSchema });

export const rotateSecretBodySchema = z.strictObject({
  site_id: siteIdSchema,
  grace_seconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .optional()
    .describe('How long the old secret keeps signing too (default 86400 = 24 h; 0 = stop at once)'),
});

export const DeletedSchema = z.object({ id: uuidSchema, deleted: z.literal(true) });

export const AttemptSchema = z.object({
  attempt: z.number().int(),
  started_at: isoTimestamp,
  duration_ms: z.number().int(),
  status_code: z.number().int().nullable().describe('HTTP status of the answer; null when none came'),
  error: z.string().nullable(),
  response_body: z.string().nullable().describe('The start of the answer (capped)'),
});

export const DeliverySchema = z.object({
  id: uuidSchema,
  event_id: uuidSchema.describe('Also the `webhook-id` header: the same on every retry and redelivery'),
  event_type: z.string(),
  endpoint_id: uuidSchema,
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.number().int(),
  next_attempt_at: isoTimestamp.nullable(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  delivered_at: isoTimestamp.nullable(),
  created_at: isoTimestamp,
});
export const DeliveryWithAttemptsSchema = DeliverySchema.extend({ attempt_log: z.array(AttemptSchema) });

export const listDeliveriesQuerySchema = z.strictObject({
  site_id: siteIdSchema,
  endpoint_id: uuidSchema.optional().describe('Only this endpoint'),
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('1–100, default 20'),
});

export const PingResultSchema = z.object({ event_id: uuidSchema, delivery_id: uuidSchema });

// Inbound change events.

const tableName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'a table name')
  .describe('Table name, e.g. leads');
export const CHANGE_TYPES = ['INSERT', 'UPDATE', 'DELETE'] as const;

export const createSubscriptionBodySchema = z.strictObject({
  site_id: siteIdSchema,
  table: tableName,
  event_types: z.array(z.enum(CHANGE_TYPES)).min(1).max(3).describe('Change types that start the workflow'),
  workflow: z.string().min(1).max(64).describe('Catalog workflow started for each matching event (e.g. leadFollowUp)'),
  input: z.record(z.string().max(64), z.unknown()).optional().describe("Fixed fields of the workflow's body"),
  record_fields: z
    .record(z.string().max(64), z.string().max(63))
    .optional()
    .describe('Body fields taken from the changed record: `{"lead_id": "id"}` sets `lead_id` to `record.id`'),
  active: z.boolean().optional().describe('Dispatches events (default true)'),
});

export const SubscriptionSchema = z.object({
  id: uuidSchema,
  site_id: uuidSchema,
  table: z.string(),
  event_types: z.array(z.string()),
  workflow: z.string(),
  input: z.record(z.string(), z.unknown()),
  record_fields: z.record(z.string(), z.string()),
  active: z.boolean(),
  created_at: isoTimestamp,
});

export const subscriptionQuerySchema = z.strictObject({ site_id: siteIdSchema, id: uuidSchema.describe('Subscription id') });

/** Supabase's database-webhook payload (`site_id` may come in the body, as on every workflow route). */
export const changeEventBodySchema = z.strictObject({
  site_id: siteIdSchema.optional(),
  type: z.enum(CHANGE_TYPES).optional().describe('INSERT, UPDATE or DELETE'),
  table: z.string().max(128).optional().describe('Table the change happened in'),
  schema: z.string().max(128).optional().describe('Schema of the table'),
  record: z.record(z.string(), z.unknown()).nullable().optional().describe('The row after the change (null on DELETE)'),
  old_record: z.record(z.string(), z.unknown()).nullable().optional().describe('The row before the change (null on INSERT)'),
});
export type ChangeEvent = z.infer<typeof changeEventBodySchema>;

export const ChangeEventResultSchema = z.object({
  async: z.literal(true),
  event_workflow_id: z.string().describe('The webhook run that records the event (GET /api/logs/workflows)'),
  dispatched: z
    .array(
      z.object({
        subscription_id: uuidSchema,
        workflow: z.string(),
        workflowId: z.string().optional().describe('The started run'),
        error: z.object({ code: z.string(), message: z.string() }).optional().describe('Why this run could not start'),
      }),
    )
    .describe('One entry per matching active subscription; empty when nobody subscribes'),
});
