import { count, desc, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { accountEvents } from '@/lib/db/schema';

export interface AccountEventRow {
  userId: string;
  siteId: string | null;
  kind: string;
  ip: string | null;
  userAgent: string | null;
  detail: Record<string, unknown>;
  createdAt: Date;
}

export async function insertAccountEvent(row: AccountEventRow): Promise<void> {
  const db = await getDb();
  await db.insert(accountEvents).values(row);
}

const columns = {
  id: accountEvents.id,
  userId: accountEvents.userId,
  siteId: accountEvents.siteId,
  kind: accountEvents.kind,
  ip: accountEvents.ip,
  userAgent: accountEvents.userAgent,
  detail: accountEvents.detail,
  createdAt: accountEvents.createdAt,
};

export type StoredAccountEvent = AccountEventRow & { id: number };

/** A page of events, newest first, of one account or (`by: 'site'`) of one site, by the index on each. */
export async function listAccountEvents(
  by: { userId: string } | { siteId: string },
  page: { limit: number; offset: number },
): Promise<{ items: StoredAccountEvent[]; total: number }> {
  const db = await getDb();
  const where = 'userId' in by ? eq(accountEvents.userId, by.userId) : eq(accountEvents.siteId, by.siteId);
  const [items, [{ n }]] = await Promise.all([
    db.select(columns).from(accountEvents).where(where).orderBy(desc(accountEvents.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(accountEvents).where(where),
  ]);
  return { items, total: n };
}
