import { and, asc, count, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { currentDate } from '@/lib/core/clock';
import { getDb } from '@/lib/db/client';
import { leads, sequenceEnrollments, sequenceMessages, sequences } from '@/lib/db/schema';
import { findOfSite } from '@/lib/db/site-scoped';
import { scheduleSteps } from './queue';

/** The only code touching the sequence tables. Site id first; another site's id finds nothing. */
export type SequenceRow = typeof sequences.$inferSelect;
export type EnrollmentRow = typeof sequenceEnrollments.$inferSelect;
type SequenceValues = Omit<typeof sequences.$inferInsert, 'id' | 'siteId' | 'createdAt' | 'updatedAt'>;

export async function insertSequence(siteId: string, values: SequenceValues): Promise<SequenceRow> {
  const db = await getDb();
  const at = currentDate();
  const [row] = await db
    .insert(sequences)
    .values({ ...values, siteId, createdAt: at, updatedAt: at })
    .returning();
  return row;
}

/** The site's sequences, newest first (a site keeps a handful: capped at 200). */
export async function listSequences(siteId: string): Promise<SequenceRow[]> {
  const db = await getDb();
  return db.select().from(sequences).where(eq(sequences.siteId, siteId)).orderBy(desc(sequences.createdAt), desc(sequences.id)).limit(200);
}

export async function findSequence(siteId: string, id: string): Promise<SequenceRow | undefined> {
  return findOfSite(sequences, siteId, id);
}

export async function updateSequence(siteId: string, id: string, set: Partial<SequenceValues>): Promise<SequenceRow | undefined> {
  const db = await getDb();
  const [row] = await db
    .update(sequences)
    .set({ ...set, updatedAt: currentDate() })
    .where(and(eq(sequences.siteId, siteId), eq(sequences.id, id)))
    .returning();
  return row;
}

/** The highest step index that went (or is going) out to any lead of the sequence; -1 when none. */
export async function lastSentStep(siteId: string, sequenceId: string): Promise<number> {
  const db = await getDb();
  const [row] = await db
    .select({ step: sql<number | null>`max(${sequenceMessages.step})` })
    .from(sequenceMessages)
    .where(and(eq(sequenceMessages.siteId, siteId), eq(sequenceMessages.sequenceId, sequenceId)));
  return row?.step === null || row?.step === undefined ? -1 : Number(row.step);
}

const messageCounts = {
  sent: sql<number>`count(*) filter (where ${sequenceMessages.status} = 'sent')::int`,
  opened: sql<number>`count(${sequenceMessages.openedAt})::int`,
  clicked: sql<number>`count(${sequenceMessages.clickedAt})::int`,
  replied: sql<number>`count(${sequenceMessages.repliedAt})::int`,
  bounced: sql<number>`count(${sequenceMessages.bouncedAt})::int`,
  unsubscribed: sql<number>`count(${sequenceMessages.unsubscribedAt})::int`,
};
export type MessageCounts = { [K in keyof typeof messageCounts]: number };

/**
 * An enrollment as it is read. A lead whose status became one its sequence stops on is stopped
 * the moment its next step is due (the step's job checks); until then, it is shown stopped
 * already, for that reason, since the lead's status changed — whichever path changed it (the
 * API, the console, an import, a workflow): what is read is always right.
 */
const endedByLead = sql`(${sequenceEnrollments.status} = 'active' and ${leads.status} = any(${sequences.stopOnStatus}))`;
const shownStatus = sql<EnrollmentRow['status']>`case when ${endedByLead} then 'stopped' else ${sequenceEnrollments.status} end`;
const shownColumns = {
  ...getTableColumns(sequenceEnrollments),
  status: shownStatus,
  stopReason: sql<EnrollmentRow['stopReason']>`case when ${endedByLead} then ${leads.status} else ${sequenceEnrollments.stopReason} end`,
  stoppedAt: sql<Date | null>`case when ${endedByLead} then ${leads.updatedAt} else ${sequenceEnrollments.stoppedAt} end`.mapWith(
    sequenceEnrollments.stoppedAt,
  ),
  nextSendAt: sql<Date | null>`case when ${endedByLead} then null else ${sequenceEnrollments.nextSendAt} end`.mapWith(sequenceEnrollments.nextSendAt),
};

/** Enrollments by status as shown (see `endedByLead`), per sequence. */
export async function enrollmentCounts(siteId: string, sequenceIds: string[]): Promise<{ sequenceId: string; status: string; n: number }[]> {
  if (sequenceIds.length === 0) return [];
  const db = await getDb();
  return db
    .select({ sequenceId: sequenceEnrollments.sequenceId, status: shownStatus, n: sql<number>`count(*)::int` })
    .from(sequenceEnrollments)
    .innerJoin(sequences, eq(sequences.id, sequenceEnrollments.sequenceId))
    .innerJoin(leads, eq(leads.id, sequenceEnrollments.leadId))
    .where(and(eq(sequenceEnrollments.siteId, siteId), inArray(sequenceEnrollments.sequenceId, sequenceIds)))
    .groupBy(sequenceEnrollments.sequenceId, shownStatus);
}

/** Message figures per sequence. */
export async function messageTotals(siteId: string, sequenceIds: string[]): Promise<({ sequenceId: string } & MessageCounts)[]> {
  if (sequenceIds.length === 0) return [];
  const db = await getDb();
  return db
    .select({ sequenceId: sequenceMessages.sequenceId, ...messageCounts })
    .from(sequenceMessages)
    .where(and(eq(sequenceMessages.siteId, siteId), inArray(sequenceMessages.sequenceId, sequenceIds)))
    .groupBy(sequenceMessages.sequenceId);
}

/** Message figures per step and subject variant of one sequence. */
export async function messagesByStep(siteId: string, sequenceId: string): Promise<({ step: number; variant: number } & MessageCounts)[]> {
  const db = await getDb();
  return db
    .select({ step: sequenceMessages.step, variant: sequenceMessages.variant, ...messageCounts })
    .from(sequenceMessages)
    .where(and(eq(sequenceMessages.siteId, siteId), eq(sequenceMessages.sequenceId, sequenceId)))
    .groupBy(sequenceMessages.step, sequenceMessages.variant);
}

/** Running enrollments per next step of one sequence. */
export async function waitingByStep(siteId: string, sequenceId: string): Promise<{ step: number; n: number }[]> {
  const db = await getDb();
  return db
    .select({ step: sequenceEnrollments.nextStep, n: sql<number>`count(*)::int` })
    .from(sequenceEnrollments)
    .innerJoin(sequences, eq(sequences.id, sequenceEnrollments.sequenceId))
    .innerJoin(leads, eq(leads.id, sequenceEnrollments.leadId))
    .where(
      and(
        eq(sequenceEnrollments.siteId, siteId),
        eq(sequenceEnrollments.sequenceId, sequenceId),
        eq(sequenceEnrollments.status, 'active'),
        sql`not ${endedByLead}`,
      ),
    )
    .groupBy(sequenceEnrollments.nextStep);
}

export async function listEnrollments(
  siteId: string,
  sequenceId: string,
  q: { status?: EnrollmentRow['status']; limit: number; offset: number },
): Promise<{ items: EnrollmentRow[]; total: number }> {
  const db = await getDb();
  const where = and(
    eq(sequenceEnrollments.siteId, siteId),
    eq(sequenceEnrollments.sequenceId, sequenceId),
    q.status ? sql`${shownStatus} = ${q.status}` : undefined,
  );
  const [items, [{ total }]] = await Promise.all([
    db
      .select(shownColumns)
      .from(sequenceEnrollments)
      .innerJoin(sequences, eq(sequences.id, sequenceEnrollments.sequenceId))
      .innerJoin(leads, eq(leads.id, sequenceEnrollments.leadId))
      .where(where)
      .orderBy(desc(sequenceEnrollments.createdAt), asc(sequenceEnrollments.id))
      .limit(q.limit)
      .offset(q.offset),
    db
      .select({ total: count() })
      .from(sequenceEnrollments)
      .innerJoin(sequences, eq(sequences.id, sequenceEnrollments.sequenceId))
      .innerJoin(leads, eq(leads.id, sequenceEnrollments.leadId))
      .where(where),
  ]);
  return { items, total: Number(total) };
}

/** The leads among `leadIds` enrolled in the sequence already (in any status). */
export async function enrolledAmong(siteId: string, sequenceId: string, leadIds: string[]): Promise<Set<string>> {
  if (leadIds.length === 0) return new Set();
  const db = await getDb();
  const rows = await db
    .select({ leadId: sequenceEnrollments.leadId })
    .from(sequenceEnrollments)
    .where(and(eq(sequenceEnrollments.siteId, siteId), eq(sequenceEnrollments.sequenceId, sequenceId), inArray(sequenceEnrollments.leadId, leadIds)));
  return new Set(rows.map((r) => r.leadId));
}

/**
 * Enrolls the leads, in one transaction, and queues their first step in the same transaction: a
 * lead already in the sequence (even by a concurrent call) is left as it is. Answers the
 * enrollments made.
 */
export async function insertEnrollments(
  siteId: string,
  sequenceId: string,
  leads: { leadId: string; email: string }[],
  nextSendAt: Date,
): Promise<EnrollmentRow[]> {
  if (leads.length === 0) return [];
  const db = await getDb();
  const at = currentDate();
  return db.transaction(async (tx) => {
    const made: EnrollmentRow[] = [];
    // Chunks keep each statement under the protocol's 65,535 parameters (a segment has up to 10,000 leads).
    for (let i = 0; i < leads.length; i += 1_000) {
      const rows = await tx
        .insert(sequenceEnrollments)
        .values(
          leads.slice(i, i + 1_000).map((l) => ({ siteId, sequenceId, leadId: l.leadId, email: l.email, nextSendAt, createdAt: at, updatedAt: at })),
        )
        .onConflictDoNothing({ target: [sequenceEnrollments.sequenceId, sequenceEnrollments.leadId] })
        .returning();
      made.push(...rows);
    }
    // The first step's jobs exist exactly when the enrollments do.
    await scheduleSteps(
      made.map((e) => ({ siteId, enrollmentId: e.id, step: 0, at: nextSendAt })),
      tx,
    );
    return made;
  });
}

/**
 * The delay of step `step` changed: each running enrollment waiting for it is due `delayMinutes`
 * after the step before it went (after its enrollment, for the first step), its job queued for
 * then in the same transaction. A job queued for the old time finds the new one and does nothing.
 */
export async function rescheduleWaiting(siteId: string, sequenceId: string, step: number, delayMinutes: number): Promise<number> {
  const db = await getDb();
  const at = currentDate();
  return db.transaction(async (tx) => {
    const previous = sql`(select coalesce(${sequenceMessages.sentAt}, ${sequenceMessages.createdAt}) from ${sequenceMessages}
      where ${sequenceMessages.enrollmentId} = ${sequenceEnrollments.id} and ${sequenceMessages.step} = ${step - 1})`;
    const moved = await tx
      .update(sequenceEnrollments)
      .set({
        nextSendAt: sql`coalesce(${step > 0 ? previous : sql`null`}, ${sequenceEnrollments.createdAt}) + make_interval(mins => ${delayMinutes}::int)`,
        updatedAt: at,
      })
      .where(
        and(
          eq(sequenceEnrollments.siteId, siteId),
          eq(sequenceEnrollments.sequenceId, sequenceId),
          eq(sequenceEnrollments.status, 'active'),
          eq(sequenceEnrollments.nextStep, step),
        ),
      )
      .returning({ id: sequenceEnrollments.id, nextSendAt: sequenceEnrollments.nextSendAt });
    await scheduleSteps(
      moved.map((e) => ({ siteId, enrollmentId: e.id, step, at: e.nextSendAt! })),
      tx,
    );
    return moved.length;
  });
}

export async function findEnrollment(siteId: string, sequenceId: string, leadId: string): Promise<EnrollmentRow | undefined> {
  const db = await getDb();
  const [row] = await db
    .select(shownColumns)
    .from(sequenceEnrollments)
    .innerJoin(sequences, eq(sequences.id, sequenceEnrollments.sequenceId))
    .innerJoin(leads, eq(leads.id, sequenceEnrollments.leadId))
    .where(and(eq(sequenceEnrollments.siteId, siteId), eq(sequenceEnrollments.sequenceId, sequenceId), eq(sequenceEnrollments.leadId, leadId)));
  return row;
}

/** Stops a running enrollment (nothing more is sent); one that already ended is left as it is. */
export async function stopEnrollment(
  siteId: string,
  sequenceId: string,
  leadId: string,
  reason: NonNullable<EnrollmentRow['stopReason']>,
): Promise<EnrollmentRow | undefined> {
  const db = await getDb();
  const at = currentDate();
  const [row] = await db
    .update(sequenceEnrollments)
    .set({ status: 'stopped', stopReason: reason, stoppedAt: at, nextSendAt: null, updatedAt: at })
    .where(
      and(
        eq(sequenceEnrollments.siteId, siteId),
        eq(sequenceEnrollments.sequenceId, sequenceId),
        eq(sequenceEnrollments.leadId, leadId),
        eq(sequenceEnrollments.status, 'active'),
      ),
    )
    .returning();
  return row;
}

export type HistoryRow = Pick<
  typeof sequenceMessages.$inferSelect,
  'enrollmentId' | 'step' | 'variant' | 'status' | 'sentAt' | 'openedAt' | 'clickedAt' | 'repliedAt' | 'bouncedAt' | 'unsubscribedAt' | 'createdAt'
>;

/** The messages of these enrollments, step by step: what each lead was sent and what it did with it. */
export async function messagesOfEnrollments(siteId: string, enrollmentIds: string[]): Promise<HistoryRow[]> {
  if (enrollmentIds.length === 0) return [];
  const db = await getDb();
  return db
    .select({
      enrollmentId: sequenceMessages.enrollmentId,
      step: sequenceMessages.step,
      variant: sequenceMessages.variant,
      status: sequenceMessages.status,
      sentAt: sequenceMessages.sentAt,
      openedAt: sequenceMessages.openedAt,
      clickedAt: sequenceMessages.clickedAt,
      repliedAt: sequenceMessages.repliedAt,
      bouncedAt: sequenceMessages.bouncedAt,
      unsubscribedAt: sequenceMessages.unsubscribedAt,
      createdAt: sequenceMessages.createdAt,
    })
    .from(sequenceMessages)
    .where(and(eq(sequenceMessages.siteId, siteId), inArray(sequenceMessages.enrollmentId, enrollmentIds)))
    .orderBy(asc(sequenceMessages.step));
}

/** A lead's enrollments in the site's sequences, newest first, with the sequence's name and step count. */
export async function enrollmentsOfLead(
  siteId: string,
  leadId: string,
): Promise<{ enrollment: EnrollmentRow; sequenceName: string; stepCount: number }[]> {
  const db = await getDb();
  return db
    .select({
      enrollment: shownColumns,
      sequenceName: sequences.name,
      stepCount: sql<number>`jsonb_array_length(${sequences.steps})::int`,
    })
    .from(sequenceEnrollments)
    .innerJoin(sequences, and(eq(sequences.id, sequenceEnrollments.sequenceId), eq(sequences.siteId, siteId)))
    .innerJoin(leads, eq(leads.id, sequenceEnrollments.leadId))
    .where(and(eq(sequenceEnrollments.siteId, siteId), eq(sequenceEnrollments.leadId, leadId)))
    .orderBy(desc(sequenceEnrollments.createdAt))
    .limit(100);
}
