import { and, eq, sql } from 'drizzle-orm';
import { currentDate } from '@/lib/core/clock';
import { getDb } from '@/lib/db/client';
import { sequenceMessages } from '@/lib/db/schema';

/**
 * Opens and clicks of a sequence's messages. The first time of each is kept (`opened_at`,
 * `clicked_at`: a message counts once, however often an image proxy or a link scanner loads it);
 * `opens` and `clicks` count every load. A click also marks the message opened (its pixel may
 * have been blocked). Answers whether the message exists.
 */
export async function recordOpen(siteId: string, messageId: string): Promise<boolean> {
  const db = await getDb();
  const at = currentDate().toISOString();
  const rows = await db
    .update(sequenceMessages)
    .set({ opens: sql`${sequenceMessages.opens} + 1`, openedAt: sql`coalesce(${sequenceMessages.openedAt}, ${at}::timestamptz)` })
    .where(and(eq(sequenceMessages.siteId, siteId), eq(sequenceMessages.id, messageId)))
    .returning({ id: sequenceMessages.id });
  return rows.length > 0;
}

export async function recordClick(siteId: string, messageId: string): Promise<boolean> {
  const db = await getDb();
  const at = currentDate().toISOString();
  const rows = await db
    .update(sequenceMessages)
    .set({
      clicks: sql`${sequenceMessages.clicks} + 1`,
      clickedAt: sql`coalesce(${sequenceMessages.clickedAt}, ${at}::timestamptz)`,
      openedAt: sql`coalesce(${sequenceMessages.openedAt}, ${at}::timestamptz)`,
    })
    .where(and(eq(sequenceMessages.siteId, siteId), eq(sequenceMessages.id, messageId)))
    .returning({ id: sequenceMessages.id });
  return rows.length > 0;
}
