import { now } from '@/lib/core/clock';
import { ApiError } from '@/lib/core/errors';
import { errorFields, log } from '@/lib/core/log';
import { sendEmail } from '@/lib/email/service';
import { findLead } from '@/lib/leads/service';
import { getSettings } from '@/lib/settings/service';
import { getSite } from '@/lib/sites/service';
import { draftStepBody } from './draft';
import type { Step } from './schema';
import * as sending from './send-repo';
import { leadValues, renderTemplate, type TemplateValues } from './template';
import { escapeHtml, htmlToText, trackHtml, trackText, type TrackedMessage } from './tracking';
import { nextAllowedTime, validTimeZone } from './window';

/** A job that runs this much before its step is due (clock skew between hosts) still sends. */
const EARLY_MS = 5_000;

/**
 * A step's body for one lead: plain text (its links tracked), or HTML with its text alternative
 * (values escaped; links tracked and the open pixel added). `tracked` null: as written.
 */
export function messageBody(step: Step, values: TemplateValues, tracked: TrackedMessage | null): { text: string; html?: string } {
  if (step.format !== 'html') {
    const text = renderTemplate(step.body, values);
    return { text: tracked ? trackText(text, tracked) : text };
  }
  const escaped = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v == null ? v : escapeHtml(v)]));
  const html = renderTemplate(step.body, escaped);
  const text = htmlToText(html);
  return tracked ? { html: trackHtml(html, tracked), text: trackText(text, tracked) } : { html, text };
}

/** Which subject a lead gets of a step with A/B variants: fixed per enrollment, spread evenly. */
export const variantOf = (enrollmentId: string, subjects: number) => parseInt(enrollmentId.replace(/-/g, '').slice(-8), 16) % subjects;

/**
 * What an enrollment waits for (the Temporal engine's workflow reads it at each wake): the step
 * it is at and how long until it is due — 0 when due now, null while nothing will make it due but
 * a change (the sequence paused, a draft waiting for review) — or null once it ended.
 */
export async function nextDue(siteId: string, enrollmentId: string): Promise<{ step: number; inMs: number | null } | null> {
  const loaded = await sending.loadForSend(siteId, enrollmentId);
  if (!loaded || loaded.enrollment.status !== 'active') return null;
  const { enrollment, sequence } = loaded;
  if (sequence.status !== 'active' || !enrollment.nextSendAt) return { step: enrollment.nextStep, inMs: null };
  const inMs = enrollment.nextSendAt.getTime() - now();
  return { step: enrollment.nextStep, inMs: inMs <= EARLY_MS ? 0 : inMs };
}

/**
 * Sends step `step` of an enrollment when it is due, inside the send window, under the daily cap
 * and the domain throttle; otherwise queues itself for the time it may go. Ends the enrollment
 * when the lead's status is one the sequence stops on, or the address was suppressed since. An
 * agent-drafted step is written by the email agent first (once: the draft is kept in the
 * enrollment) and, with review, sent only once approved.
 */
export async function runStep(siteId: string, enrollmentId: string, step: number): Promise<void> {
  const loaded = await sending.loadForSend(siteId, enrollmentId);
  if (!loaded) return;
  const { enrollment, sequence } = loaded;
  // Stopped, completed, moved on (a duplicate job), or paused (resuming queues the job again).
  if (enrollment.status !== 'active' || enrollment.nextStep !== step || sequence.status !== 'active') return;
  const at = now();
  if (enrollment.nextSendAt && enrollment.nextSendAt.getTime() > at + EARLY_MS) return; // a later job of this step exists
  const steps = sequence.steps as Step[];
  const current = steps[step];
  const nextDelay = (i: number) => (steps[i + 1] ? steps[i + 1].delay_minutes : null);
  if (!current) return sending.finishStep(siteId, enrollment, step, null, null);

  const lead = await findLead(siteId, enrollment.leadId);
  if (!lead) return; // the lead was deleted: its enrollment went with it
  if ((sequence.stopOnStatus as string[]).includes(lead.status)) {
    return sending.stopEnrollmentById(siteId, enrollment.id, lead.status as 'converted' | 'lost');
  }

  const [settings, site] = await Promise.all([getSettings(siteId), getSite(siteId)]);
  const values = { ...leadValues(lead), site_name: site?.name ?? null, industry: settings.industry ?? null };
  const subjects = [current.subject, ...(current.subject_variants ?? [])];
  const variant = variantOf(enrollment.id, subjects.length);

  // An agent-drafted step: the email agent writes it when it is due; with review it waits for approval.
  let drafted: { subject: string; body: string } | null = null;
  if (current.kind === 'agent') {
    let draft = enrollment.draft?.step === step ? enrollment.draft : null;
    if (!draft) {
      const subject = renderTemplate(subjects[variant], values);
      let body: string;
      try {
        body = await draftStepBody({
          siteName: site?.name ?? 'the business',
          industry: settings.industry ?? null,
          lead,
          instructions: renderTemplate(current.body, values),
          subject,
        });
      } catch (error) {
        if (error instanceof ApiError && error.code === 'MODEL_NOT_CONFIGURED')
          return sending.failEnrollment(siteId, enrollment.id, step, `MODEL_NOT_CONFIGURED: ${error.message}`);
        throw error;
      }
      if (!body) throw new ApiError('PROVIDER_ERROR', 'The model answered with an empty email');
      draft = { step, subject, body, approved: current.review === false, created_at: new Date(at).toISOString() };
      if (!(await sending.saveDraft(siteId, enrollment.id, step, draft))) return; // moved on meanwhile
    }
    if (!draft.approved) return; // waits in the enrollment until approved (approveDraft queues the step again)
    drafted = draft;
  }

  const timeZone = validTimeZone(settings.business_hours?.timezone);
  const allowed = nextAllowedTime(at, sequence.sendWindow ?? null, timeZone);
  if (allowed > at + EARLY_MS) return sending.deferStep(siteId, enrollmentId, step, new Date(allowed));

  const claim = await sending.claimStep(siteId, enrollment, step, variant, {
    dailyCap: sequence.dailyCap,
    domainPerMinute: sequence.domainPerMinute,
    timeZone,
  });
  if ('deferUntil' in claim) return sending.deferStep(siteId, enrollmentId, step, claim.deferUntil);
  if ('existing' in claim) {
    // Claimed by an earlier run. `sending` means that run stopped mid-send (a killed worker): the
    // mail may have left, so it is never sent again; the step is recorded failed and the lead moves on.
    const outcome = claim.existing.status === 'sending' ? { messageId: claim.existing.id, status: 'failed' as const } : null;
    return sending.finishStep(siteId, enrollment, step, outcome, nextDelay(step));
  }

  const tracked = sequence.tracking ? { siteId, messageId: claim.claimed.id } : null;
  try {
    const sent = await sendEmail(
      siteId,
      null,
      drafted
        ? { to: [enrollment.email], subject: drafted.subject, text: tracked ? trackText(drafted.body, tracked) : drafted.body }
        : { to: [enrollment.email], subject: renderTemplate(subjects[variant], values), ...messageBody(current, values, tracked) },
      { leadId: lead.id, unsubscribeFooter: true },
    );
    await sending.finishStep(siteId, enrollment, step, { messageId: claim.claimed.id, status: 'sent', emailMessageId: sent.id }, nextDelay(step));
  } catch (error) {
    if (error instanceof ApiError && error.code === 'UNPROCESSABLE') {
      // The address went on the suppression list after enrollment: nothing was sent, nothing will be.
      await sending.stopEnrollmentById(siteId, enrollment.id, 'unsubscribed');
      return sending.finishStep(siteId, enrollment, step, { messageId: claim.claimed.id, status: 'skipped' }, null);
    }
    // Refused before anything left (the mail server answered an error): the claim goes, the job's retry sends.
    log.warn('sequence step not sent', { site_id: siteId, ...errorFields(error) });
    await sending.releaseClaim(siteId, claim.claimed.id);
    throw error;
  }
}
