import { and, count, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { currentDate } from '@/lib/core/clock';
import { getDb } from '@/lib/db/client';
import { emailMessages, emailRecipients } from '@/lib/db/schema';
import type { EmailMessage, Recipient } from './schema';

type MessageRow = typeof emailMessages.$inferSelect;
type RecipientRow = typeof emailRecipients.$inferSelect;

const toMessage = (row: MessageRow): EmailMessage => ({
  id: row.id,
  app_id: row.appId,
  transport: row.transport,
  status: row.status,
  from: row.fromAddress,
  to: row.toAddresses,
  subject: row.subject,
  text: row.textBody,
  html: row.htmlBody,
  provider_message_id: row.providerMessageId,
  created_at: row.createdAt.toISOString(),
});

export async function insertMessage(siteId: string, m: Omit<typeof emailMessages.$inferInsert, 'siteId' | 'id' | 'createdAt'>): Promise<EmailMessage> {
  const db = await getDb();
  const [row] = await db.insert(emailMessages).values({ ...m, siteId, createdAt: currentDate() }).returning();
  return toMessage(row);
}

export async function listMessages(siteId: string, page: { limit: number; offset: number }): Promise<{ items: EmailMessage[]; total: number }> {
  const db = await getDb();
  const where = eq(emailMessages.siteId, siteId);
  const [found, [{ total }]] = await Promise.all([
    db.select().from(emailMessages).where(where).orderBy(desc(emailMessages.createdAt), desc(emailMessages.id)).limit(page.limit).offset(page.offset),
    db.select({ total: count() }).from(emailMessages).where(where),
  ]);
  return { items: found.map(toMessage), total: Number(total) };
}

export const toRecipient = (row: RecipientRow): Recipient => ({
  id: row.id,
  email: row.email,
  verified: row.verifiedAt !== null,
  verified_at: row.verifiedAt?.toISOString() ?? null,
  code_expires_at: row.verifiedAt ? null : (row.codeExpiresAt?.toISOString() ?? null),
  created_at: row.createdAt.toISOString(),
});

export async function listRecipientRows(siteId: string): Promise<RecipientRow[]> {
  const db = await getDb();
  return db.select().from(emailRecipients).where(eq(emailRecipients.siteId, siteId)).orderBy(emailRecipients.createdAt, emailRecipients.id);
}

export async function findRecipient(siteId: string, id: string): Promise<RecipientRow | undefined> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(emailRecipients)
    .where(and(eq(emailRecipients.siteId, siteId), eq(emailRecipients.id, id)))
    .limit(1);
  return row;
}

/**
 * Stores a new code for the address (creating its row), unless it is verified already or a code
 * went out less than `minGapMs` ago. Returns the row, or why nothing was stored. One statement:
 * two concurrent requests cannot both send.
 */
export async function issueCode(
  siteId: string,
  email: string,
  codeHash: string,
  expiresAt: Date,
  minGapMs: number,
): Promise<{ row: RecipientRow } | { refused: 'verified' | 'too_soon'; row: RecipientRow }> {
  const db = await getDb();
  const at = currentDate();
  const earliest = new Date(at.getTime() - minGapMs);
  const [row] = await db
    .insert(emailRecipients)
    .values({ siteId, email, codeHash, codeExpiresAt: expiresAt, codesSent: 1, lastSentAt: at, createdAt: at })
    .onConflictDoUpdate({
      target: [emailRecipients.siteId, emailRecipients.email],
      set: { codeHash, codeExpiresAt: expiresAt, failedAttempts: 0, codesSent: sql`${emailRecipients.codesSent} + 1`, lastSentAt: at },
      setWhere: sql`${emailRecipients.verifiedAt} is null and (${emailRecipients.lastSentAt} is null or ${emailRecipients.lastSentAt} <= ${earliest.toISOString()}::timestamptz)`,
    })
    .returning();
  if (row) return { row };
  const [existing] = await db
    .select()
    .from(emailRecipients)
    .where(and(eq(emailRecipients.siteId, siteId), eq(emailRecipients.email, email)))
    .limit(1);
  return { refused: existing.verifiedAt ? 'verified' : 'too_soon', row: existing };
}

/**
 * Checks a code against the pending one in one statement: a match verifies the address and
 * clears the code; a miss counts an attempt. Returns the row after the attempt.
 */
export async function attemptCode(siteId: string, id: string, codeHash: string, maxAttempts: number): Promise<RecipientRow | undefined> {
  const db = await getDb();
  const at = currentDate().toISOString();
  const matches = sql`(${emailRecipients.codeHash} = ${codeHash} and ${emailRecipients.codeExpiresAt} > ${at}::timestamptz and ${emailRecipients.failedAttempts} < ${maxAttempts})`;
  const [row] = await db
    .update(emailRecipients)
    .set({
      verifiedAt: sql`case when ${matches} then ${at}::timestamptz else ${emailRecipients.verifiedAt} end`,
      failedAttempts: sql`case when ${matches} then ${emailRecipients.failedAttempts} else ${emailRecipients.failedAttempts} + 1 end`,
      codeHash: sql`case when ${matches} then null else ${emailRecipients.codeHash} end`,
    })
    .where(and(eq(emailRecipients.siteId, siteId), eq(emailRecipients.id, id), sql`${emailRecipients.verifiedAt} is null`))
    .returning();
  return row;
}

export async function deleteRecipient(siteId: string, id: string): Promise<boolean> {
  const db = await getDb();
  const deleted = await db
    .delete(emailRecipients)
    .where(and(eq(emailRecipients.siteId, siteId), eq(emailRecipients.id, id)))
    .returning({ id: emailRecipients.id });
  return deleted.length > 0;
}

/** Which of these addresses are verified recipients of the site. */
export async function verifiedAmong(siteId: string, emails: string[]): Promise<Set<string>> {
  if (!emails.length) return new Set();
  const db = await getDb();
  const found = await db
    .select({ email: emailRecipients.email })
    .from(emailRecipients)
    .where(and(eq(emailRecipients.siteId, siteId), inArray(emailRecipients.email, emails), isNotNull(emailRecipients.verifiedAt)));
  return new Set(found.map((r) => r.email));
}
