import { createHash } from 'node:crypto';
import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { currentDate } from '@/lib/core/clock';
import { getDb } from '@/lib/db/client';
import { emailMailboxes, emailMessages, emailRecipients, emailSenders, emailSuppressions } from '@/lib/db/schema';
import { findOfSite, pageOf } from '@/lib/db/site-scoped';
import type { EmailMessage, Recipient, Suppression } from './schema';

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
  message_id: row.messageId,
  direction: row.direction,
  in_reply_to: row.inReplyTo,
  kind: row.kind,
  lead_id: row.leadId,
  workflow_id: row.workflowId,
  conversation_id: row.conversationId,
  command_id: row.commandId,
  created_at: row.createdAt.toISOString(),
});

export async function insertMessage(
  siteId: string,
  m: Omit<typeof emailMessages.$inferInsert, 'siteId' | 'id' | 'createdAt'>,
): Promise<EmailMessage> {
  const db = await getDb();
  const [row] = await db
    .insert(emailMessages)
    .values({ ...m, siteId, createdAt: currentDate() })
    .returning();
  return toMessage(row);
}

export async function listMessages(
  siteId: string,
  page: { limit: number; offset: number; leadId?: string },
): Promise<{ items: EmailMessage[]; total: number }> {
  const where = page.leadId ? and(eq(emailMessages.siteId, siteId), eq(emailMessages.leadId, page.leadId)) : eq(emailMessages.siteId, siteId);
  const { rows, total } = await pageOf(emailMessages, where, [desc(emailMessages.createdAt), desc(emailMessages.id)], page);
  return { items: rows.map(toMessage), total };
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
  return findOfSite(emailRecipients, siteId, id);
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

// ——— Inbound messages ———

/** Stores an inbound message once per mailbox key; undefined when it was stored already. */
export async function insertInbound(
  siteId: string,
  m: Omit<typeof emailMessages.$inferInsert, 'siteId' | 'id' | 'createdAt' | 'direction' | 'transport' | 'status'> & { mailboxKey: string },
): Promise<EmailMessage | undefined> {
  const db = await getDb();
  const [row] = await db
    .insert(emailMessages)
    .values({ ...m, siteId, direction: 'inbound', transport: 'imap', status: 'received', createdAt: currentDate() })
    .onConflictDoNothing({ target: [emailMessages.siteId, emailMessages.mailboxKey], where: sql`mailbox_key is not null` })
    .returning();
  return row && toMessage(row);
}

/** The site's outbound message with one of these Message-IDs (the first found), for threading a reply. */
export async function findOutboundByMessageIds(siteId: string, messageIds: string[]): Promise<EmailMessage | undefined> {
  if (!messageIds.length) return undefined;
  const db = await getDb();
  const [row] = await db
    .select()
    .from(emailMessages)
    .where(and(eq(emailMessages.siteId, siteId), eq(emailMessages.direction, 'outbound'), inArray(emailMessages.messageId, messageIds)))
    .orderBy(desc(emailMessages.createdAt))
    .limit(1);
  return row && toMessage(row);
}

export async function linkInboundCommand(siteId: string, id: string, link: { commandId: string; conversationId: string }): Promise<void> {
  const db = await getDb();
  await db
    .update(emailMessages)
    .set(link)
    .where(and(eq(emailMessages.siteId, siteId), eq(emailMessages.id, id)));
}

// ——— Sender identity ———

export async function findSender(siteId: string) {
  const db = await getDb();
  const [row] = await db.select().from(emailSenders).where(eq(emailSenders.siteId, siteId)).limit(1);
  return row;
}

export async function saveSender(siteId: string, v: { fromAddress: string | null; fromName: string | null; replyTo: string | null }): Promise<void> {
  const db = await getDb();
  const values = { ...v, updatedAt: currentDate() };
  await db
    .insert(emailSenders)
    .values({ siteId, ...values })
    .onConflictDoUpdate({ target: emailSenders.siteId, set: values });
}

// ——— Suppression list ———

export async function suppress(siteId: string, email: string, reason: Suppression['reason']): Promise<void> {
  const db = await getDb();
  await db.insert(emailSuppressions).values({ siteId, email, reason, createdAt: currentDate() }).onConflictDoNothing();
}

/**
 * The entry an erased person leaves on the suppression list: a hash of the lower-cased address, so
 * the address is refused without being kept (reason `erased`).
 */
export const suppressionHash = (email: string): string => `sha256:${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;

/** Which of `emails` are suppressed, by their address or by the hash an erasure left. */
export async function suppressedAmong(siteId: string, emails: string[]): Promise<Set<string>> {
  if (!emails.length) return new Set();
  const db = await getDb();
  const keys = [...new Set(emails.flatMap((e) => [e, suppressionHash(e)]))];
  const rows = await db
    .select({ email: emailSuppressions.email })
    .from(emailSuppressions)
    .where(and(eq(emailSuppressions.siteId, siteId), inArray(emailSuppressions.email, keys)));
  const listed = new Set(rows.map((r) => r.email));
  return new Set(emails.filter((e) => listed.has(e) || listed.has(suppressionHash(e))));
}

export async function listSuppressions(siteId: string, page: { limit: number; offset: number }): Promise<{ items: Suppression[]; total: number }> {
  const where = eq(emailSuppressions.siteId, siteId);
  const { rows, total } = await pageOf(emailSuppressions, where, [desc(emailSuppressions.createdAt), emailSuppressions.email], page);
  return { items: rows.map((r) => ({ email: r.email, reason: r.reason, created_at: r.createdAt.toISOString() })), total };
}

export async function deleteSuppression(siteId: string, email: string): Promise<boolean> {
  const db = await getDb();
  const gone = await db
    .delete(emailSuppressions)
    .where(and(eq(emailSuppressions.siteId, siteId), inArray(emailSuppressions.email, [email, suppressionHash(email)])))
    .returning({ email: emailSuppressions.email });
  return gone.length > 0;
}

// ——— Mailbox ———

export type MailboxRow = typeof emailMailboxes.$inferSelect;

export async function findMailbox(siteId: string): Promise<MailboxRow | undefined> {
  const db = await getDb();
  const [row] = await db.select().from(emailMailboxes).where(eq(emailMailboxes.siteId, siteId)).limit(1);
  return row;
}

/** Saves the mailbox's connection; a changed server, account or folder starts the sync over. */
export async function saveMailbox(
  siteId: string,
  v: { host: string; port: number; tls: boolean; username: string; folder: string; secretId: string },
): Promise<MailboxRow> {
  const db = await getDb();
  const at = currentDate();
  const moved = sql`(${emailMailboxes.host}, ${emailMailboxes.port}, ${emailMailboxes.username}, ${emailMailboxes.folder}) is distinct from (${v.host}, ${v.port}, ${v.username}, ${v.folder})`;
  const [row] = await db
    .insert(emailMailboxes)
    .values({ siteId, ...v, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({
      target: emailMailboxes.siteId,
      set: {
        ...v,
        updatedAt: at,
        uidValidity: sql`case when ${moved} then null else ${emailMailboxes.uidValidity} end`,
        lastUid: sql`case when ${moved} then 0 else ${emailMailboxes.lastUid} end`,
        lastErrorCode: null,
      },
    })
    .returning();
  return row;
}

export async function deleteMailbox(siteId: string): Promise<MailboxRow | undefined> {
  const db = await getDb();
  const [row] = await db.delete(emailMailboxes).where(eq(emailMailboxes.siteId, siteId)).returning();
  return row;
}

/** Records how a sync attempt ended: the position reached, or the error code of the failure. */
export async function recordMailboxSync(siteId: string, o: { uidValidity?: number; lastUid?: number; errorCode: string | null }): Promise<void> {
  const db = await getDb();
  await db
    .update(emailMailboxes)
    .set({
      ...(o.uidValidity !== undefined ? { uidValidity: o.uidValidity } : {}),
      ...(o.lastUid !== undefined ? { lastUid: o.lastUid } : {}),
      lastErrorCode: o.errorCode,
      ...(o.errorCode ? {} : { lastSyncAt: currentDate() }),
    })
    .where(eq(emailMailboxes.siteId, siteId));
}

/** Sites with a mailbox, for the scheduled sync. */
export async function sitesWithMailbox(): Promise<string[]> {
  const db = await getDb();
  return (await db.select({ siteId: emailMailboxes.siteId }).from(emailMailboxes)).map((r) => r.siteId);
}

export async function findMessage(siteId: string, id: string): Promise<EmailMessage | undefined> {
  const row = await findOfSite(emailMessages, siteId, id);
  return row && toMessage(row);
}

/** The site's answer to a message (outbound, In-Reply-To its Message-ID, not refused by the transport), if any. */
export async function findAnswer(siteId: string, messageId: string): Promise<EmailMessage | undefined> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(emailMessages)
    .where(
      and(
        eq(emailMessages.siteId, siteId),
        eq(emailMessages.direction, 'outbound'),
        eq(emailMessages.inReplyTo, messageId),
        sql`${emailMessages.status} <> 'failed'`,
      ),
    )
    .limit(1);
  return row && toMessage(row);
}
