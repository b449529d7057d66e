import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import { currentDate } from '@/lib/core/clock';
import { getDb } from '@/lib/db/client';
import { sequenceEnrollments, sequenceMessages } from '@/lib/db/schema';
import type { MailReactions } from '@/lib/email/reactions';

/**
 * What the mailbox and the unsubscribe link tell the sequences: a reply to a sequence's message
 * stops that enrollment and marks the step `replied`; a bounce or an unsubscribe stops every
 * running enrollment of the address on the site and is counted on the last message it was sent.
 * (An automatic reply changes nothing.) Email reports them through its `MailReactions` port; the
 * entries that run the unsubscribe and the mailbox sync hand it `sequenceReactions`.
 */
type Reason = 'replied' | 'bounced' | 'unsubscribed';
const MARK = { replied: 'repliedAt', bounced: 'bouncedAt', unsubscribed: 'unsubscribedAt' } as const;

/** A reply threaded to the site's message `emailMessageId` (the email log's id of what was sent). */
export async function sequenceReplyReceived(siteId: string, emailMessageId: string): Promise<void> {
  const db = await getDb();
  const at = currentDate();
  await db.transaction(async (tx) => {
    const [message] = await tx
      .update(sequenceMessages)
      .set({ repliedAt: sql`coalesce(${sequenceMessages.repliedAt}, ${at.toISOString()}::timestamptz)` })
      .where(and(eq(sequenceMessages.siteId, siteId), eq(sequenceMessages.emailMessageId, emailMessageId)))
      .returning({ enrollmentId: sequenceMessages.enrollmentId });
    if (!message) return;
    await tx
      .update(sequenceEnrollments)
      .set({ status: 'stopped', stopReason: 'replied', stoppedAt: at, nextSendAt: null, updatedAt: at })
      .where(and(eq(sequenceEnrollments.siteId, siteId), eq(sequenceEnrollments.id, message.enrollmentId), eq(sequenceEnrollments.status, 'active')));
  });
}

/** The address bounced or unsubscribed: its running enrollments stop, each counted on its last message sent. */
export async function sequenceAddressEnded(siteId: string, address: string, reason: Exclude<Reason, 'replied'>): Promise<void> {
  const db = await getDb();
  const at = currentDate();
  await db.transaction(async (tx) => {
    const stopped = await tx
      .update(sequenceEnrollments)
      .set({ status: 'stopped', stopReason: reason, stoppedAt: at, nextSendAt: null, updatedAt: at })
      .where(
        and(
          eq(sequenceEnrollments.siteId, siteId),
          sql`lower(${sequenceEnrollments.email}) = ${address.toLowerCase()}`,
          eq(sequenceEnrollments.status, 'active'),
        ),
      )
      .returning({ id: sequenceEnrollments.id });
    for (const enrollment of stopped) {
      const [last] = await tx
        .select({ id: sequenceMessages.id })
        .from(sequenceMessages)
        .where(and(eq(sequenceMessages.enrollmentId, enrollment.id), isNotNull(sequenceMessages.sentAt)))
        .orderBy(desc(sequenceMessages.step))
        .limit(1);
      if (last)
        await tx
          .update(sequenceMessages)
          .set({ [MARK[reason]]: at })
          .where(eq(sequenceMessages.id, last.id));
    }
  });
}

/** The sequences' listener for what the site's mail reports (lib/email/reactions.ts). */
export const sequenceReactions: MailReactions = { addressEnded: sequenceAddressEnded, replyReceived: sequenceReplyReceived };
