import * as repo from './repo';
import type { Enrollment } from './schema';
import { toEnrollment } from './service';

/** What happened to each enrollment's messages, step by step, and a lead's enrollments across the site's sequences. */
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export interface StepMessage {
  step: number;
  /** 0: the step's `subject`, 1…: its `subject_variants`. */
  variant: number;
  status: 'sending' | 'sent' | 'failed' | 'skipped';
  sent_at: string | null;
  opened_at: string | null;
  clicked_at: string | null;
  replied_at: string | null;
  bounced_at: string | null;
  unsubscribed_at: string | null;
}

/** The messages of these enrollments (of one site), by enrollment id, in step order. */
export async function enrollmentHistory(siteId: string, enrollmentIds: string[]): Promise<Map<string, StepMessage[]>> {
  const rows = await repo.messagesOfEnrollments(siteId, enrollmentIds);
  const history = new Map<string, StepMessage[]>(enrollmentIds.map((id) => [id, []]));
  for (const r of rows) {
    history.get(r.enrollmentId)?.push({
      step: r.step,
      variant: r.variant,
      status: r.status,
      sent_at: iso(r.sentAt),
      opened_at: iso(r.openedAt),
      clicked_at: iso(r.clickedAt),
      replied_at: iso(r.repliedAt),
      bounced_at: iso(r.bouncedAt),
      unsubscribed_at: iso(r.unsubscribedAt),
    });
  }
  return history;
}

export interface LeadEnrollment extends Enrollment {
  sequence_id: string;
  sequence_name: string;
  steps: number;
}

/** The sequences a lead is (or was) enrolled in, newest first. */
export async function leadEnrollments(siteId: string, leadId: string): Promise<LeadEnrollment[]> {
  const rows = await repo.enrollmentsOfLead(siteId, leadId);
  return rows.map((r) => ({
    ...toEnrollment(r.enrollment),
    sequence_id: r.enrollment.sequenceId,
    sequence_name: r.sequenceName,
    steps: Number(r.stepCount),
  }));
}

/** How many of the sequence's first steps went out to a lead already: those can no longer change. */
export async function sentStepCount(siteId: string, sequenceId: string): Promise<number> {
  return (await repo.lastSentStep(siteId, sequenceId)) + 1;
}
