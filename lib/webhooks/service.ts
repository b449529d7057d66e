import { now } from '@/lib/core/clock';
import { ApiError } from '@/lib/core/errors';
import { checkOutboundUrl, isAllowListedHost, OutboundFailedError, OutboundRefusedError } from '@/lib/net/guard';
import { withinSiteCap } from '@/lib/sites/caps';
import { recordPing } from './outbox-repo';
import * as repo from './repo';
import type { Endpoint } from './schema';
import { encryptSecret, generateSigningSecret } from './secret';

/** The outbox other domains write their events to, inside their own transactions. */
export { recordEvent, wantsEvents } from './outbox-repo';

/** Endpoints, deliveries and inbound subscriptions of one site (the routes and the console). */
export const DEFAULT_GRACE_SECONDS = 24 * 3600;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toEndpoint(row: repo.EndpointRow): Endpoint {
  return {
    id: row.id,
    site_id: row.siteId,
    url: row.url,
    description: row.description,
    events: row.events,
    active: row.active,
    status: row.status,
    failing_since: iso(row.failingSince),
    previous_secret_expires_at:
      row.previousSecretExpiresAt && row.previousSecretExpiresAt.getTime() > now() ? row.previousSecretExpiresAt.toISOString() : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** https to a public address; http only to a host in OUTBOUND_ALLOW_HOSTS (development, tests). */
async function checkEndpointUrl(raw: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError('INVALID_REQUEST', 'url is not a URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isAllowListedHost(url.hostname))) {
    throw new ApiError('INVALID_REQUEST', 'url must be https (http only to a host the operator allows)');
  }
  try {
    return (await checkOutboundUrl(url)).url.toString();
  } catch (error) {
    if (error instanceof OutboundRefusedError || error instanceof OutboundFailedError)
      throw new ApiError('INVALID_REQUEST', `url refused: ${error.message}`);
    throw error;
  }
}

export async function createEndpoint(
  siteId: string,
  input: { url: string; events: string[]; description?: string; active?: boolean },
): Promise<Endpoint & { secret: string }> {
  const url = await checkEndpointUrl(input.url);
  const secret = generateSigningSecret();
  const row = await withinSiteCap(
    siteId,
    'webhook_endpoints_per_site',
    (tx) => repo.countEndpoints(siteId, tx),
    (tx) =>
      repo.insertEndpoint(
        siteId,
        {
          url,
          description: input.description ?? null,
          events: [...new Set(input.events)],
          active: input.active ?? true,
          secretEncrypted: encryptSecret(secret),
        },
        tx,
      ),
  );
  return { ...toEndpoint(row), secret };
}

export const listEndpoints = async (siteId: string): Promise<Endpoint[]> => (await repo.listEndpoints(siteId)).map(toEndpoint);

/** Changes what an endpoint receives (its events), its description or whether it is active; its URL and secret stay. */
export async function updateEndpoint(
  siteId: string,
  id: string,
  input: { events?: string[]; description?: string | null; active?: boolean },
): Promise<Endpoint> {
  const row = await repo.updateEndpoint(siteId, id, input);
  if (!row) throw new ApiError('NOT_FOUND', 'Webhook endpoint not found');
  return toEndpoint(row);
}

export async function deleteEndpoint(siteId: string, id: string): Promise<{ id: string; deleted: true }> {
  if (!(await repo.deleteEndpoint(siteId, id))) throw new ApiError('NOT_FOUND', 'Webhook endpoint not found');
  return { id, deleted: true };
}

/** A new secret, shown once; the old one keeps signing too for `graceSeconds` (Standard Webhooks allows several signatures). */
export async function rotateEndpointSecret(siteId: string, id: string, graceSeconds = DEFAULT_GRACE_SECONDS): Promise<Endpoint & { secret: string }> {
  const secret = generateSigningSecret();
  const row = await repo.rotateEndpointSecret(siteId, id, encryptSecret(secret), graceSeconds > 0 ? new Date(now() + graceSeconds * 1000) : null);
  if (!row) throw new ApiError('NOT_FOUND', 'Webhook endpoint not found');
  return { ...toEndpoint(row), secret };
}

/** Sends a `webhook.ping` event to this endpoint only (asynchronously, like any delivery). */
export async function pingEndpoint(siteId: string, id: string): Promise<{ event_id: string; delivery_id: string }> {
  if (!(await repo.findEndpoint(siteId, id))) throw new ApiError('NOT_FOUND', 'Webhook endpoint not found');
  const ping = await recordPing(siteId, id);
  return { event_id: ping.eventId, delivery_id: ping.deliveryId };
}

function toDelivery({ delivery, eventType }: repo.DeliveryListItem) {
  return {
    id: delivery.id,
    event_id: delivery.eventId,
    event_type: eventType,
    endpoint_id: delivery.endpointId,
    status: delivery.status,
    attempts: delivery.attempts,
    next_attempt_at: iso(delivery.nextAttemptAt),
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    delivered_at: iso(delivery.deliveredAt),
    created_at: delivery.createdAt.toISOString(),
  };
}

export async function listDeliveries(siteId: string, q: { endpoint_id?: string; limit: number; offset?: number }) {
  if (q.endpoint_id && !(await repo.findEndpoint(siteId, q.endpoint_id))) throw new ApiError('NOT_FOUND', 'Webhook endpoint not found');
  return (await repo.listDeliveries(siteId, { endpointId: q.endpoint_id, limit: q.limit, offset: q.offset })).map(toDelivery);
}

export async function getDelivery(siteId: string, id: string) {
  const found = await repo.findDelivery(siteId, id);
  if (!found) throw new ApiError('NOT_FOUND', 'Delivery not found');
  const attempts = await repo.attemptsOf(siteId, id);
  return {
    ...toDelivery(found),
    attempt_log: attempts.map((a) => ({
      attempt: a.attempt,
      started_at: a.startedAt.toISOString(),
      duration_ms: a.durationMs,
      status_code: a.statusCode,
      error: a.error,
      response_body: a.responseBody,
    })),
  };
}

/** Sends the event again to the same endpoint, as a new delivery with a fresh retry schedule and the same webhook-id. */
export async function redeliver(siteId: string, id: string) {
  const found = await repo.findDelivery(siteId, id);
  if (!found) throw new ApiError('NOT_FOUND', 'Delivery not found');
  const row = await repo.requeueDelivery(siteId, found.delivery);
  return toDelivery({ delivery: row, eventType: found.eventType });
}

// Inbound change-event subscriptions (started by lib/workflows/change-events.ts).

function toSubscription(row: repo.SubscriptionRow) {
  return {
    id: row.id,
    site_id: row.siteId,
    table: row.tableName,
    event_types: row.eventTypes,
    workflow: row.workflow,
    input: row.input,
    record_fields: row.recordFields,
    active: row.active,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * Stores a subscription whose workflow the caller checked against the workflow catalog
 * (lib/workflows/change-events.ts, which starts it when a matching change event arrives).
 */
export async function saveSubscription(
  siteId: string,
  input: {
    table: string;
    event_types: string[];
    workflow: string;
    input?: Record<string, unknown>;
    record_fields?: Record<string, string>;
    active?: boolean;
  },
) {
  if ('site_id' in (input.input ?? {}) || 'site_id' in (input.record_fields ?? {})) {
    throw new ApiError('INVALID_REQUEST', 'site_id is always the subscription’s site; leave it out of input and record_fields');
  }
  const row = await repo.insertSubscription(siteId, {
    tableName: input.table,
    eventTypes: [...new Set(input.event_types)],
    workflow: input.workflow,
    input: input.input ?? {},
    recordFields: input.record_fields ?? {},
    active: input.active ?? true,
  });
  return toSubscription(row);
}

export const listSubscriptions = async (siteId: string) => (await repo.listSubscriptions(siteId)).map(toSubscription);

export async function deleteSubscription(siteId: string, id: string): Promise<{ id: string; deleted: true }> {
  if (!(await repo.deleteSubscription(siteId, id))) throw new ApiError('NOT_FOUND', 'Subscription not found');
  return { id, deleted: true };
}

/** The site's active subscriptions to changes of `type` in `table`. */
export const activeSubscriptions = (siteId: string, table: string, type: string) => repo.activeSubscriptions(siteId, table, type);
