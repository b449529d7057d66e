import { isDeepStrictEqual } from 'node:util';
import { currentDate, now } from '@/lib/core/clock';
import { ApiError, found } from '@/lib/core/errors';
import { suppressedAmong } from '@/lib/email/service';
import { leadsForBatch, type LeadRow } from '@/lib/leads/service';
import { assertSegmentOfSite } from '@/lib/segments/service';
import { scheduleSteps } from './queue';
import * as repo from './repo';
import type {
  ApproveDraftInput,
  CreateSequenceInput,
  Enrollment,
  EnrollInput,
  EnrollResult,
  Figures,
  GetSequenceQuery,
  Sequence,
  SequenceDetail,
  Step,
  UpdateSequenceInput,
} from './schema';
import * as sending from './send-repo';
import { activeEnrollments } from './send-repo';

/** Sequences of one site: their steps and options, figures, and the leads enrolled in them. */
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const NO_MESSAGES = { sent: 0, opened: 0, clicked: 0, replied: 0, bounced: 0, unsubscribed: 0 };

export function toEnrollment(row: repo.EnrollmentRow): Enrollment {
  return {
    id: row.id,
    lead_id: row.leadId,
    email: row.email,
    status: row.status,
    failure: row.failure,
    draft: row.draft ?? null,
    stop_reason: row.stopReason,
    next_step: row.nextStep,
    next_send_at: iso(row.nextSendAt),
    created_at: row.createdAt.toISOString(),
    stopped_at: iso(row.stoppedAt),
    completed_at: iso(row.completedAt),
  };
}

function toSequence(row: repo.SequenceRow, figures: Figures): Sequence {
  return {
    id: row.id,
    site_id: row.siteId,
    name: row.name,
    status: row.status,
    steps: row.steps as Step[],
    send_window: row.sendWindow ?? null,
    daily_cap: row.dailyCap,
    domain_per_minute: row.domainPerMinute,
    stop_on_status: row.stopOnStatus,
    tracking: row.tracking,
    figures,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Total figures of each sequence, zero where nothing happened yet. */
async function totals(siteId: string, sequenceIds: string[]): Promise<Map<string, Figures>> {
  const [enrollments, messages] = await Promise.all([repo.enrollmentCounts(siteId, sequenceIds), repo.messageTotals(siteId, sequenceIds)]);
  const figures = new Map<string, Figures>(
    sequenceIds.map((id) => [id, { enrolled: 0, active: 0, completed: 0, stopped: 0, failed: 0, ...NO_MESSAGES }]),
  );
  for (const e of enrollments) {
    const f = figures.get(e.sequenceId)!;
    f.enrolled += Number(e.n);
    if (e.status === 'active' || e.status === 'completed' || e.status === 'stopped' || e.status === 'failed') f[e.status] += Number(e.n);
  }
  for (const { sequenceId, ...m } of messages) Object.assign(figures.get(sequenceId)!, numbers(m));
  return figures;
}

const numbers = (m: repo.MessageCounts): repo.MessageCounts => ({
  sent: Number(m.sent),
  opened: Number(m.opened),
  clicked: Number(m.clicked),
  replied: Number(m.replied),
  bounced: Number(m.bounced),
  unsubscribed: Number(m.unsubscribed),
});

export async function createSequence(siteId: string, input: CreateSequenceInput): Promise<Sequence> {
  const row = await repo.insertSequence(siteId, {
    name: input.name,
    status: input.status ?? 'active',
    steps: input.steps,
    sendWindow: input.send_window ?? null,
    dailyCap: input.daily_cap ?? null,
    domainPerMinute: input.domain_per_minute ?? null,
    stopOnStatus: [...new Set(input.stop_on_status ?? [])],
    tracking: input.tracking ?? true,
  });
  return toSequence(row, (await totals(siteId, [row.id])).get(row.id)!);
}

export async function listSequences(siteId: string): Promise<Sequence[]> {
  const rows = await repo.listSequences(siteId);
  const figures = await totals(
    siteId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toSequence(r, figures.get(r.id)!));
}

const sequenceOf = async (siteId: string, id: string) => found(await repo.findSequence(siteId, id), 'Sequence');

export async function getSequence(siteId: string, id: string, q: GetSequenceQuery): Promise<SequenceDetail> {
  const row = await sequenceOf(siteId, id);
  const steps = row.steps as Step[];
  const [figures, byStep, waiting, enrollments] = await Promise.all([
    totals(siteId, [id]),
    repo.messagesByStep(siteId, id),
    repo.waitingByStep(siteId, id),
    repo.listEnrollments(siteId, id, { status: q.enrollment_status, limit: q.limit, offset: q.offset }),
  ]);
  const stepFigures = steps.map((step, index) => {
    const subjects = [step.subject, ...(step.subject_variants ?? [])];
    const variants = subjects.map((subject, variant) => {
      const counts = byStep.find((m) => m.step === index && m.variant === variant);
      return { variant, subject, ...(counts ? numbers(counts) : NO_MESSAGES) };
    });
    const sum = { ...NO_MESSAGES };
    for (const m of byStep.filter((m) => m.step === index)) for (const [k, v] of Object.entries(numbers(m))) sum[k as keyof typeof sum] += v;
    return { step: index, waiting: Number(waiting.find((w) => w.step === index)?.n ?? 0), ...sum, variants };
  });
  return {
    ...toSequence(row, figures.get(id)!),
    step_figures: stepFigures,
    enrollments: enrollments.items.map(toEnrollment),
    enrollments_total: enrollments.total,
  };
}

/**
 * Changes the given fields. Steps that already went out to a lead are history: a new list must
 * carry them unchanged (a lead's step 2 follows the step 1 it was sent). Later steps may change.
 */
export async function updateSequence(siteId: string, id: string, input: UpdateSequenceInput): Promise<Sequence> {
  const row = await sequenceOf(siteId, id);
  if (input.steps) {
    const sent = await repo.lastSentStep(siteId, id);
    const before = row.steps as Step[];
    for (let i = 0; i <= sent; i++) {
      if (!isDeepStrictEqual(normalised(input.steps[i]), normalised(before[i])))
        throw new ApiError('CONFLICT', `steps.${i} was sent to leads already: give it unchanged (only the steps after ${sent} may change)`, {
          field: `steps.${i}`,
        });
    }
  }
  const updated = await repo.updateSequence(siteId, id, {
    ...(input.name !== undefined && { name: input.name }),
    ...(input.status !== undefined && { status: input.status }),
    ...(input.steps !== undefined && { steps: input.steps }),
    ...(input.send_window !== undefined && { sendWindow: input.send_window }),
    ...(input.daily_cap !== undefined && { dailyCap: input.daily_cap }),
    ...(input.domain_per_minute !== undefined && { domainPerMinute: input.domain_per_minute }),
    ...(input.stop_on_status !== undefined && { stopOnStatus: [...new Set(input.stop_on_status)] }),
    ...(input.tracking !== undefined && { tracking: input.tracking }),
  });
  const saved = found(updated, 'Sequence');
  if (input.steps) {
    // A step whose delay changed: the leads waiting for it are due at the new time (from the step before it, or their enrollment).
    const before = row.steps as Step[];
    for (const [index, step] of input.steps.entries())
      if (before[index] && before[index].delay_minutes !== step.delay_minutes) await repo.rescheduleWaiting(siteId, id, index, step.delay_minutes);
  }
  if (row.status === 'paused' && saved.status === 'active') {
    // Jobs that ran while it was paused did nothing: each running enrollment's step is queued again, due when it was.
    const at = now();
    await scheduleSteps(
      (await activeEnrollments(siteId, id)).map((e) => ({
        siteId,
        enrollmentId: e.id,
        step: e.nextStep,
        at: new Date(Math.max(at, e.nextSendAt?.getTime() ?? at)),
      })),
    );
  }
  return toSequence(saved, (await totals(siteId, [id])).get(id)!);
}

/** A step as stored (optional variants left out when empty), for comparison. */
const normalised = (step: Step | undefined) =>
  step && {
    delay_minutes: step.delay_minutes,
    subject: step.subject,
    subject_variants: step.subject_variants ?? [],
    body: step.body,
    format: step.format ?? 'text',
    kind: step.kind ?? 'email',
    review: step.review ?? true,
  };

/**
 * Enrolls leads (by id, or a segment's), once per sequence. Skipped and counted: leads enrolled
 * before, leads whose address is suppressed, leads whose status the sequence stops on. The first
 * step is due `delay_minutes` after now.
 */
export async function enroll(siteId: string, sequenceId: string, input: EnrollInput): Promise<EnrollResult> {
  const sequence = await sequenceOf(siteId, sequenceId);
  let leads: LeadRow[];
  if ('segment_id' in input) {
    await assertSegmentOfSite(siteId, input.segment_id);
    leads = await leadsForBatch(siteId, { segmentId: input.segment_id });
  } else {
    const ids = [...new Set(input.lead_ids)];
    leads = await leadsForBatch(siteId, { ids });
    const missing = ids.filter((id) => !leads.some((l) => l.id === id));
    if (missing.length) throw new ApiError('NOT_FOUND', `Lead not found: ${missing[0]}`);
  }
  const already = await repo.enrolledAmong(
    siteId,
    sequenceId,
    leads.map((l) => l.id),
  );
  const suppressed = await suppressedAmong(siteId, [...new Set(leads.flatMap((l) => [l.email, l.email.toLowerCase()]))]);
  const stopsOn = new Set<string>(sequence.stopOnStatus);
  const counts = { already_enrolled: 0, suppressed: 0, ineligible: 0 };
  const candidates: { leadId: string; email: string }[] = [];
  for (const lead of leads) {
    if (already.has(lead.id)) counts.already_enrolled++;
    else if (suppressed.has(lead.email) || suppressed.has(lead.email.toLowerCase())) counts.suppressed++;
    else if (stopsOn.has(lead.status)) counts.ineligible++;
    else candidates.push({ leadId: lead.id, email: lead.email });
  }
  const first = (sequence.steps as Step[])[0];
  const due = new Date(currentDate().getTime() + first.delay_minutes * 60_000);
  const made = await repo.insertEnrollments(siteId, sequenceId, candidates, due);
  // A concurrent call may have enrolled some of them between the read and the insert.
  counts.already_enrolled += candidates.length - made.length;
  return { enrolled: made.length, ...counts, enrollments: made.map(toEnrollment) };
}

/**
 * Approves the agent's draft waiting in a lead's enrollment, edited when `subject` or `body` are
 * given: the step goes out now (within the send window, the cap and the throttle). A draft approved
 * already and not yet sent takes the edits. 409 when the enrollment has no draft of its next step.
 */
export async function approveDraft(siteId: string, sequenceId: string, leadId: string, input: ApproveDraftInput): Promise<Enrollment> {
  await sequenceOf(siteId, sequenceId);
  const enrollment = found(await repo.findEnrollment(siteId, sequenceId, leadId), 'Enrollment');
  const approved = await sending.approveDraft(siteId, enrollment.id, {
    ...(input.subject !== undefined && { subject: input.subject }),
    ...(input.body !== undefined && { body: input.body }),
  });
  if (!approved) throw new ApiError('CONFLICT', 'This enrollment has no draft of its next step to approve');
  return toEnrollment(approved);
}

/** Takes a lead out of the sequence: nothing more is sent to it; it stays listed, stopped (`removed`). */
export async function unenroll(siteId: string, sequenceId: string, leadId: string): Promise<Enrollment> {
  await sequenceOf(siteId, sequenceId);
  // Ended already (shown stopped by the lead's status, too): left as it is.
  const shown = found(await repo.findEnrollment(siteId, sequenceId, leadId), 'Enrollment');
  if (shown.status !== 'active') return toEnrollment(shown);
  const stopped = await repo.stopEnrollment(siteId, sequenceId, leadId, 'removed');
  if (stopped) return toEnrollment(stopped);
  return toEnrollment(found(await repo.findEnrollment(siteId, sequenceId, leadId), 'Enrollment'));
}
export { draftsForReview, type DraftForReview } from './review-repo';
export { sequenceReactions } from './reactions-repo';
