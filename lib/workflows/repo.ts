import { getDb } from '@/lib/db/client';
import { webhookEvents } from '@/lib/db/schema';

/** Stores an inbound change event received by the webhook workflow. */
export async function insertWebhookEvent(
  siteId: string,
  event: { workflowId: string; eventType: string | null; tableName: string | null; payload: Record<string, unknown> },
): Promise<string> {
  const db = await getDb();
  const [row] = await db
    .insert(webhookEvents)
    .values({ siteId, ...event })
    .returning({ id: webhookEvents.id });
  return row.id;
}
