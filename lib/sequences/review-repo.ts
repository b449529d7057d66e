import { and, desc, eq, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { leads, sequenceEnrollments, sequences } from '@/lib/db/schema';

/**
 * The email agent's drafts that wait for the owner's review in one sequence: running enrollments
 * whose next step's draft is not approved yet (a lead whose status the sequence stops on is
 * shown stopped, not waiting). Oldest draft first, so the longest wait is read first.
 */
export interface DraftForReview {
  enrollmentId: string;
  leadId: string;
  leadName: string;
  email: string;
  step: number;
  subject: string;
  body: string;
  draftedAt: string;
}

const waiting = (siteId: string, sequenceId: string) =>
  and(
    eq(sequenceEnrollments.siteId, siteId),
    eq(sequenceEnrollments.sequenceId, sequenceId),
    eq(sequenceEnrollments.status, 'active'),
    sql`(${sequenceEnrollments.draft} ->> 'approved') = 'false'`,
    sql`(${sequenceEnrollments.draft} ->> 'step')::int = ${sequenceEnrollments.nextStep}`,
    sql`not (${leads.status} = any(${sequences.stopOnStatus}))`,
  );

export async function draftsForReview(siteId: string, sequenceId: string, limit: number): Promise<{ items: DraftForReview[]; total: number }> {
  const db = await getDb();
  const [rows, [{ n }]] = await Promise.all([
    db
      .select({
        enrollmentId: sequenceEnrollments.id,
        leadId: sequenceEnrollments.leadId,
        leadName: leads.name,
        email: sequenceEnrollments.email,
        draft: sequenceEnrollments.draft,
      })
      .from(sequenceEnrollments)
      .innerJoin(sequences, eq(sequences.id, sequenceEnrollments.sequenceId))
      .innerJoin(leads, eq(leads.id, sequenceEnrollments.leadId))
      .where(waiting(siteId, sequenceId))
      .orderBy(sql`${sequenceEnrollments.draft} ->> 'created_at'`, desc(sequenceEnrollments.id))
      .limit(limit),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(sequenceEnrollments)
      .innerJoin(sequences, eq(sequences.id, sequenceEnrollments.sequenceId))
      .innerJoin(leads, eq(leads.id, sequenceEnrollments.leadId))
      .where(waiting(siteId, sequenceId)),
  ]);
  return {
    items: rows.map((r) => ({
      enrollmentId: r.enrollmentId,
      leadId: r.leadId,
      leadName: r.leadName,
      email: r.email,
      step: r.draft!.step,
      subject: r.draft!.subject,
      body: r.draft!.body,
      draftedAt: r.draft!.created_at,
    })),
    total: Number(n),
  };
}
