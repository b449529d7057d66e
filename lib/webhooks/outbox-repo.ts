import { and, arrayContains, arrayOverlaps, eq, sql } from 'drizzle-orm';
import { currentDate } from '@/lib/core/clock';
import { getDb, type Db } from '@/lib/db/client';
import { changedRows } from '@/lib/db/raw';
import { outboundEvents, webhookDeliveries, webhookEndpoints } from '@/lib/db/schema';
import { enqueueAll } from '@/lib/jobs/queue';
import { PING_EVENT, type EventType } from './events';
import { deliveryQueue } from './queue';

/**
 * The outbox. `recordEvent` is called inside the transaction that makes the change: it writes the
 * event and one pending delivery per active endpoint of the site that subscribed to its type, so
 * the event exists exactly when the change does; each delivery's first attempt is a job of the
 * delivery queue written in the same transaction (`./jobs.ts` sends it).
 */

/**
 * Writes an event and its deliveries with `tx` (the caller's transaction). With a dedupe key, a
 * second call for the same thing records nothing. Answers the event id, or undefined when no
 * endpoint wants the event (nothing is written then).
 */
export async function recordEvent(
  tx: Db,
  siteId: string,
  type: EventType,
  data: Record<string, unknown>,
  dedupeKey?: string,
): Promise<string | undefined> {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.siteId, siteId), eq(webhookEndpoints.active, true), arrayContains(webhookEndpoints.events, [type])));
  if (endpoints.length === 0) return undefined;
  const [event] = await tx
    .insert(outboundEvents)
    .values({ siteId, type, data, dedupeKey: dedupeKey ?? null })
    .onConflictDoNothing()
    .returning({ id: outboundEvents.id });
  if (!event) return undefined;
  const at = currentDate();
  const deliveries = await tx
    .insert(webhookDeliveries)
    .values(endpoints.map((e) => ({ siteId, eventId: event.id, endpointId: e.id, nextAttemptAt: at })))
    .returning({ id: webhookDeliveries.id });
  await enqueueAll(
    deliveryQueue,
    deliveries.map((d) => ({ data: { deliveryId: d.id } })),
    { tx },
  );
  return event.id;
}

/** A ping: an event of its own, delivered to that one endpoint, in a transaction of its own. */
export async function recordPing(siteId: string, endpointId: string): Promise<{ eventId: string; deliveryId: string }> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [event] = await tx
      .insert(outboundEvents)
      .values({ siteId, type: PING_EVENT, data: { endpoint_id: endpointId, message: 'This is a test event.' } })
      .returning({ id: outboundEvents.id });
    const [delivery] = await tx
      .insert(webhookDeliveries)
      .values({ siteId, eventId: event.id, endpointId, nextAttemptAt: currentDate() })
      .returning({ id: webhookDeliveries.id });
    await enqueueAll(deliveryQueue, [{ data: { deliveryId: delivery.id } }], { tx });
    return { eventId: event.id, deliveryId: delivery.id };
  });
}

/** Whether an active endpoint of the site subscribed to any of `types` (a bulk write records its events only then). */
export async function wantsEvents(tx: Db, siteId: string, types: EventType[]): Promise<boolean> {
  const [hit] = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.siteId, siteId), eq(webhookEndpoints.active, true), arrayOverlaps(webhookEndpoints.events, types)))
    .limit(1);
  return hit !== undefined;
}

/**
 * Retention (lib/worker/retention.ts): deletes up to `limit` outbound events created before `cutoff`, oldest
 * first, with their deliveries and attempts, once none of them is still pending. Answers how many went.
 */
export const pruneOutboundEvents = (cutoff: Date, limit: number): Promise<number> =>
  changedRows(
    sql`delete from outbound_events where id in (
      select e.id from outbound_events e where e.created_at < ${cutoff.toISOString()}::timestamptz
        and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.status = 'pending')
      order by e.created_at limit ${limit})`,
  );
