import { and, desc, eq, sql, arrayContains } from 'drizzle-orm';
import { currentDate } from '@/lib/core/clock';
import { getDb, type Db } from '@/lib/db/client';
import { eventSubscriptions, outboundEvents, webhookAttempts, webhookDeliveries, webhookEndpoints } from '@/lib/db/schema';
import { findOfSite } from '@/lib/db/site-scoped';
import { enqueueAll } from '@/lib/jobs/queue';
import { deliveryQueue } from './queue';

/** The only code touching the webhook tables. Site id first; another site's id finds nothing. */
export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;
export type EventRow = typeof outboundEvents.$inferSelect;
export type SubscriptionRow = typeof eventSubscriptions.$inferSelect;

export async function insertEndpoint(
  siteId: string,
  values: { url: string; description: string | null; events: string[]; active: boolean; secretEncrypted: string },
  on?: Db,
): Promise<EndpointRow> {
  const db = on ?? (await getDb());
  const [row] = await db
    .insert(webhookEndpoints)
    .values({ siteId, ...values })
    .returning();
  return row;
}

export async function listEndpoints(siteId: string): Promise<EndpointRow[]> {
  const db = await getDb();
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.siteId, siteId))
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id))
    .limit(100);
}

export async function countEndpoints(siteId: string, on?: Db): Promise<number> {
  const db = on ?? (await getDb());
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.siteId, siteId));
  return Number(row.n);
}

export async function findEndpoint(siteId: string, id: string): Promise<EndpointRow | undefined> {
  return findOfSite(webhookEndpoints, siteId, id);
}

export async function updateEndpoint(
  siteId: string,
  id: string,
  values: { events?: string[]; description?: string | null; active?: boolean },
): Promise<EndpointRow | undefined> {
  const db = await getDb();
  const [row] = await db
    .update(webhookEndpoints)
    .set({ ...values, updatedAt: currentDate() })
    .where(and(eq(webhookEndpoints.siteId, siteId), eq(webhookEndpoints.id, id)))
    .returning();
  return row;
}

export async function deleteEndpoint(siteId: string, id: string): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.siteId, siteId), eq(webhookEndpoints.id, id)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

export async function rotateEndpointSecret(
  siteId: string,
  id: string,
  secretEncrypted: string,
  previousUntil: Date | null,
): Promise<EndpointRow | undefined> {
  const db = await getDb();
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      previousSecretEncrypted: previousUntil ? webhookEndpoints.secretEncrypted : null,
      previousSecretExpiresAt: previousUntil,
      secretEncrypted,
      updatedAt: currentDate(),
    })
    .where(and(eq(webhookEndpoints.siteId, siteId), eq(webhookEndpoints.id, id)))
    .returning();
  return row;
}

export interface DeliveryListItem {
  delivery: DeliveryRow;
  eventType: string;
}

/** The site's most recent deliveries (of one endpoint when given), newest first. */
export async function listDeliveries(siteId: string, q: { endpointId?: string; limit: number; offset?: number }): Promise<DeliveryListItem[]> {
  const db = await getDb();
  const rows = await db
    .select({ delivery: webhookDeliveries, eventType: outboundEvents.type })
    .from(webhookDeliveries)
    .innerJoin(outboundEvents, eq(outboundEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.siteId, siteId), q.endpointId ? eq(webhookDeliveries.endpointId, q.endpointId) : undefined))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(q.limit)
    .offset(q.offset ?? 0);
  return rows;
}

export async function findDelivery(siteId: string, id: string): Promise<DeliveryListItem | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({ delivery: webhookDeliveries, eventType: outboundEvents.type })
    .from(webhookDeliveries)
    .innerJoin(outboundEvents, eq(outboundEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.siteId, siteId), eq(webhookDeliveries.id, id)));
  return row;
}

export async function attemptsOf(siteId: string, deliveryId: string): Promise<AttemptRow[]> {
  const db = await getDb();
  return db
    .select()
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.siteId, siteId), eq(webhookAttempts.deliveryId, deliveryId)))
    .orderBy(webhookAttempts.attempt);
}

/** A new delivery of the same event to the same endpoint (same webhook-id), due now, with its first job. */
export async function requeueDelivery(siteId: string, delivery: DeliveryRow): Promise<DeliveryRow> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(webhookDeliveries)
      .values({ siteId, eventId: delivery.eventId, endpointId: delivery.endpointId, nextAttemptAt: currentDate() })
      .returning();
    await enqueueAll(deliveryQueue, [{ data: { deliveryId: row.id } }], { tx: tx });
    return row;
  });
}

export interface ClaimedDelivery {
  delivery: DeliveryRow;
  event: EventRow;
  endpoint: EndpointRow;
}

/** A delivery with its event and endpoint (undefined when the endpoint, and with it the delivery, was deleted). */
export async function loadDelivery(id: string): Promise<ClaimedDelivery | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({ delivery: webhookDeliveries, event: outboundEvents, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(outboundEvents, eq(outboundEvents.id, webhookDeliveries.eventId))
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, id));
  return row;
}

export type AttemptOutcome = { status: 'succeeded' } | { status: 'pending'; nextAttemptAt: Date } | { status: 'failed' };

/**
 * Records one attempt and its consequence on the delivery and the endpoint's health, together
 * with the job of the next attempt when one is due. Only once per attempt: a repeated call for
 * an attempt already recorded (its job ran again after a crash) changes nothing.
 */
export async function finishAttempt(
  claimed: ClaimedDelivery,
  attempt: { startedAt: Date; durationMs: number; statusCode: number | null; error: string | null; responseBody: string | null },
  outcome: AttemptOutcome,
): Promise<void> {
  const db = await getDb();
  const { delivery } = claimed;
  const at = currentDate();
  await db.transaction(async (tx) => {
    const [moved] = await tx
      .update(webhookDeliveries)
      .set({
        status: outcome.status,
        attempts: delivery.attempts + 1,
        nextAttemptAt: outcome.status === 'pending' ? outcome.nextAttemptAt : null,
        lastStatusCode: attempt.statusCode,
        lastError: attempt.error,
        deliveredAt: outcome.status === 'succeeded' ? at : null,
        updatedAt: at,
      })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.status, 'pending'), eq(webhookDeliveries.attempts, delivery.attempts)))
      .returning({ id: webhookDeliveries.id });
    if (!moved) return;
    await tx.insert(webhookAttempts).values({ siteId: delivery.siteId, deliveryId: delivery.id, attempt: delivery.attempts + 1, ...attempt });
    if (outcome.status === 'pending') {
      await enqueueAll(deliveryQueue, [{ data: { deliveryId: delivery.id }, startAfter: outcome.nextAttemptAt }], { tx: tx });
    }
    // The endpoint's health is its last answer: a failed attempt (a ping's 404 too) marks it
    // failing at once, while retries go on; the next success heals it.
    if (outcome.status === 'succeeded') {
      await tx
        .update(webhookEndpoints)
        .set({ status: 'healthy', failingSince: null })
        .where(and(eq(webhookEndpoints.id, delivery.endpointId), eq(webhookEndpoints.status, 'failing')));
    } else {
      await tx
        .update(webhookEndpoints)
        .set({ status: 'failing', failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${at.toISOString()}::timestamptz)` })
        .where(eq(webhookEndpoints.id, delivery.endpointId));
    }
  });
}

// Inbound subscriptions.

export async function insertSubscription(
  siteId: string,
  values: {
    tableName: string;
    eventTypes: string[];
    workflow: string;
    input: Record<string, unknown>;
    recordFields: Record<string, string>;
    active: boolean;
  },
): Promise<SubscriptionRow> {
  const db = await getDb();
  const [row] = await db
    .insert(eventSubscriptions)
    .values({ siteId, ...values })
    .returning();
  return row;
}

export async function listSubscriptions(siteId: string): Promise<SubscriptionRow[]> {
  const db = await getDb();
  return db
    .select()
    .from(eventSubscriptions)
    .where(eq(eventSubscriptions.siteId, siteId))
    .orderBy(desc(eventSubscriptions.createdAt), desc(eventSubscriptions.id))
    .limit(100);
}

export async function deleteSubscription(siteId: string, id: string): Promise<SubscriptionRow | undefined> {
  const db = await getDb();
  const [row] = await db
    .delete(eventSubscriptions)
    .where(and(eq(eventSubscriptions.siteId, siteId), eq(eventSubscriptions.id, id)))
    .returning();
  return row;
}

export async function activeSubscriptions(siteId: string, table: string, type: string): Promise<SubscriptionRow[]> {
  const db = await getDb();
  return db
    .select()
    .from(eventSubscriptions)
    .where(
      and(
        eq(eventSubscriptions.siteId, siteId),
        eq(eventSubscriptions.active, true),
        eq(eventSubscriptions.tableName, table),
        arrayContains(eventSubscriptions.eventTypes, [type]),
      ),
    )
    .orderBy(eventSubscriptions.createdAt);
}

/** A delivery whose job failed for good (not the receiver: the worker or the database) is failed, never left pending. */
export async function recordLostDelivery(id: string, error: string, at: Date): Promise<void> {
  const db = await getDb();
  await db
    .update(webhookDeliveries)
    .set({ status: 'failed', lastError: error, nextAttemptAt: null, updatedAt: at })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')));
}
