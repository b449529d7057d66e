import { and, eq, gt, gte, inArray, sql } from 'drizzle-orm';
import { currentDate } from '@/lib/core/clock';
import { getDb } from '@/lib/db/client';
import { isUniqueViolation } from '@/lib/db/errors';
import { lockForTransaction } from '@/lib/db/lock';
import { sequenceEnrollments, sequenceMessages, sequences } from '@/lib/db/schema';
import { scheduleSteps } from './queue';
import type { EnrollmentRow, SequenceRow } from './repo';
import { localDay } from './window';

/**
 * The sending side of sequences: what a step's job reads, the claim that makes a step go out at
 * most once, and the writes after a send. Site id first.
 */
export type MessageRow = typeof sequenceMessages.$inferSelect;

/** The site's enrollment while it is still active at `step`: what a step's send, deferral, failure or draft may change. */
const activeAtStep = (siteId: string, enrollmentId: string, step: number) =>
  and(
    eq(sequenceEnrollments.siteId, siteId),
    eq(sequenceEnrollments.id, enrollmentId),
    eq(sequenceEnrollments.nextStep, step),
    eq(sequenceEnrollments.status, 'active'),
  );

export async function loadForSend(siteId: string, enrollmentId: string): Promise<{ enrollment: EnrollmentRow; sequence: SequenceRow } | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({ enrollment: sequenceEnrollments, sequence: sequences })
    .from(sequenceEnrollments)
    .innerJoin(sequences, eq(sequences.id, sequenceEnrollments.sequenceId))
    .where(and(eq(sequenceEnrollments.siteId, siteId), eq(sequenceEnrollments.id, enrollmentId)));
  return row;
}

export type Claim =
  | { claimed: MessageRow }
  | { existing: MessageRow }
  /** The daily cap or the domain throttle is reached: try again then. */
  | { deferUntil: Date };

/**
 * Claims step `step` of the enrollment for sending: one row per (enrollment, step), written before
 * the mail goes out. The caps are counted and the row inserted in one transaction under the site's
 * sending lock, so concurrent workers never pass them together. The daily cap counts the site's
 * day in its time zone.
 */
export async function claimStep(
  siteId: string,
  enrollment: EnrollmentRow,
  step: number,
  variant: number,
  caps: { dailyCap: number | null; domainPerMinute: number | null; timeZone: string },
): Promise<Claim> {
  const db = await getDb();
  const at = currentDate();
  try {
    return await db.transaction(async (tx) => {
      const [existing] = await tx
        .select()
        .from(sequenceMessages)
        .where(and(eq(sequenceMessages.enrollmentId, enrollment.id), eq(sequenceMessages.step, step)));
      if (existing) return { existing };
      await lockForTransaction(tx, `sequence-send:${siteId}`);
      if (caps.dailyCap !== null) {
        const day = localDay(at.getTime(), caps.timeZone);
        const dayStart = new Date(day.start);
        const [{ n }] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(sequenceMessages)
          .where(
            and(
              eq(sequenceMessages.siteId, siteId),
              gte(sequenceMessages.createdAt, dayStart),
              inArray(sequenceMessages.status, ['sending', 'sent']),
            ),
          );
        if (Number(n) >= caps.dailyCap) return { deferUntil: new Date(day.end) };
      }
      if (caps.domainPerMinute !== null) {
        const domain = enrollment.email.split('@').pop()!.toLowerCase();
        const since = new Date(at.getTime() - 60_000);
        const [{ n, first }] = await tx
          .select({ n: sql<number>`count(*)::int`, first: sql<string | null>`min(${sequenceMessages.createdAt})` })
          .from(sequenceMessages)
          .innerJoin(sequenceEnrollments, eq(sequenceEnrollments.id, sequenceMessages.enrollmentId))
          .where(
            and(
              eq(sequenceMessages.siteId, siteId),
              gt(sequenceMessages.createdAt, since),
              sql`lower(split_part(${sequenceEnrollments.email}, '@', 2)) = ${domain}`,
            ),
          );
        if (Number(n) >= caps.domainPerMinute) return { deferUntil: new Date(new Date(first ?? at).getTime() + 60_000) };
      }
      const [claimed] = await tx
        .insert(sequenceMessages)
        .values({ siteId, sequenceId: enrollment.sequenceId, enrollmentId: enrollment.id, step, variant, status: 'sending', createdAt: at })
        .returning();
      return { claimed };
    });
  } catch (error) {
    // Another worker claimed the same step between the read and the insert.
    if (!isUniqueViolation(error)) throw error;
    const [existing] = await db
      .select()
      .from(sequenceMessages)
      .where(and(eq(sequenceMessages.enrollmentId, enrollment.id), eq(sequenceMessages.step, step)));
    return { existing };
  }
}

/** The send was refused before anything left (provider error): the claim goes, a retry may send. */
export async function releaseClaim(siteId: string, messageId: string): Promise<void> {
  const db = await getDb();
  await db
    .delete(sequenceMessages)
    .where(and(eq(sequenceMessages.siteId, siteId), eq(sequenceMessages.id, messageId), eq(sequenceMessages.status, 'sending')));
}

/**
 * Ends a step: the message (when given) is recorded with its outcome, and the enrollment moves
 * to the next step — due `nextDelayMinutes` later, its job queued in the same transaction — or
 * completes after the last. Only an enrollment still at this step and active moves.
 */
export async function finishStep(
  siteId: string,
  enrollment: EnrollmentRow,
  step: number,
  outcome: { messageId: string; status: 'sent' | 'failed' | 'skipped'; emailMessageId?: string | null } | null,
  nextDelayMinutes: number | null,
): Promise<void> {
  const db = await getDb();
  const at = currentDate();
  await db.transaction(async (tx) => {
    if (outcome)
      await tx
        .update(sequenceMessages)
        .set({ status: outcome.status, emailMessageId: outcome.emailMessageId ?? null, sentAt: outcome.status === 'sent' ? at : null })
        .where(and(eq(sequenceMessages.siteId, siteId), eq(sequenceMessages.id, outcome.messageId)));
    const next = nextDelayMinutes === null ? null : new Date(at.getTime() + nextDelayMinutes * 60_000);
    const [moved] = await tx
      .update(sequenceEnrollments)
      .set(
        next
          ? { nextStep: step + 1, nextSendAt: next, draft: null, updatedAt: at }
          : { nextStep: step + 1, nextSendAt: null, draft: null, status: 'completed', completedAt: at, updatedAt: at },
      )
      .where(activeAtStep(siteId, enrollment.id, step))
      .returning({ id: sequenceEnrollments.id });
    if (moved && next) await scheduleSteps([{ siteId, enrollmentId: enrollment.id, step: step + 1, at: next }], tx);
  });
}

/** The step may not go yet (send window, daily cap, domain throttle): it is due at `at`, its job queued for then. */
export async function deferStep(siteId: string, enrollmentId: string, step: number, at: Date): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [moved] = await tx
      .update(sequenceEnrollments)
      .set({ nextSendAt: at, updatedAt: currentDate() })
      .where(activeAtStep(siteId, enrollmentId, step))
      .returning({ id: sequenceEnrollments.id });
    if (moved) await scheduleSteps([{ siteId, enrollmentId, step, at }], tx);
  });
}

/** Stops a running enrollment by id (the lead's status, a suppressed address). */
export async function stopEnrollmentById(siteId: string, enrollmentId: string, reason: NonNullable<EnrollmentRow['stopReason']>): Promise<void> {
  const db = await getDb();
  const at = currentDate();
  await db
    .update(sequenceEnrollments)
    .set({ status: 'stopped', stopReason: reason, stoppedAt: at, nextSendAt: null, updatedAt: at })
    .where(and(eq(sequenceEnrollments.siteId, siteId), eq(sequenceEnrollments.id, enrollmentId), eq(sequenceEnrollments.status, 'active')));
}

/**
 * The enrollment's step could not be sent after every retry: it ends `failed`, the reason kept
 * for the owner to read. Only an enrollment still active at that step changes.
 */
export async function failEnrollment(siteId: string, enrollmentId: string, step: number, reason: string): Promise<void> {
  const db = await getDb();
  const at = currentDate();
  await db
    .update(sequenceEnrollments)
    .set({ status: 'failed', failure: reason.slice(0, 1_000), nextSendAt: null, stoppedAt: at, updatedAt: at })
    .where(activeAtStep(siteId, enrollmentId, step));
}

export type Draft = NonNullable<EnrollmentRow['draft']>;

/**
 * Keeps the email agent's draft of step `step` in the enrollment. One waiting for review holds the
 * enrollment (no next send time) until approved. Answers false when the enrollment moved on.
 */
export async function saveDraft(siteId: string, enrollmentId: string, step: number, draft: Draft): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(sequenceEnrollments)
    .set({ draft, ...(draft.approved ? {} : { nextSendAt: null }), updatedAt: currentDate() })
    .where(activeAtStep(siteId, enrollmentId, step))
    .returning({ id: sequenceEnrollments.id });
  return rows.length > 0;
}

/**
 * Approves the draft of the enrollment's next step (with the owner's edits): one waiting for
 * review is due now, its job queued in the same transaction; one approved already (waiting for the
 * send window or the cap) takes the edits and keeps its time. Answers the enrollment, or undefined
 * when there is no draft of the next step.
 */
export async function approveDraft(
  siteId: string,
  enrollmentId: string,
  edits: { subject?: string; body?: string },
): Promise<EnrollmentRow | undefined> {
  const db = await getDb();
  const at = currentDate();
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(sequenceEnrollments)
      .where(and(eq(sequenceEnrollments.siteId, siteId), eq(sequenceEnrollments.id, enrollmentId), eq(sequenceEnrollments.status, 'active')))
      .for('update');
    const draft = current?.draft;
    if (!draft || draft.step !== current.nextStep) return undefined;
    const [row] = await tx
      .update(sequenceEnrollments)
      .set({ draft: { ...draft, ...edits, approved: true }, ...(draft.approved ? {} : { nextSendAt: at }), updatedAt: at })
      .where(eq(sequenceEnrollments.id, enrollmentId))
      .returning();
    if (!draft.approved) await scheduleSteps([{ siteId, enrollmentId, step: draft.step, at }], tx);
    return row;
  });
}

/** The running enrollments of a sequence with their next step and due time (a resumed sequence queues them again). */
export async function activeEnrollments(siteId: string, sequenceId: string): Promise<EnrollmentRow[]> {
  const db = await getDb();
  return db
    .select()
    .from(sequenceEnrollments)
    .where(and(eq(sequenceEnrollments.siteId, siteId), eq(sequenceEnrollments.sequenceId, sequenceId), eq(sequenceEnrollments.status, 'active')));
}
