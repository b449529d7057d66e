'use client';

import { useActionState, type ReactNode } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import {
  approveDraftAction,
  createSequenceAction,
  enrollAction,
  previewStepAction,
  setSequenceStatusAction,
  testSendStepAction,
  unenrollAction,
  updateSequenceAction,
} from '@/app/(console)/_lib/sequence-actions';
import { DELAY_UNITS, splitDelay, STEP_MODES, stepMode, WEEKDAYS, type EnrollCounts } from '@/app/(console)/_lib/sequence-form';
import { Field, FormError, SelectField, TextAreaField } from '@/components/field';
import type { FormState } from '@/components/form-state';
import { ActionButton } from '@/components/forms/action-button';
import { RemoveButton } from '@/components/forms/remove-button';
import { SubmitButton } from '@/components/submit-button';
import type { StepPreview } from '@/lib/sequences/preview';
import type { Step } from '@/lib/sequences/schema';

/** What the builder starts from: a saved sequence's fields, or a new one's defaults. */
export interface BuilderValues {
  id?: string;
  name: string;
  steps: Step[];
  send_window: { days: number[]; start_hour: number; end_hour: number } | null;
  daily_cap: number | null;
  domain_per_minute: number | null;
  stop_on_status: string[];
  tracking?: boolean;
}

const HOURS = Array.from({ length: 25 }, (_, h) => ({ value: String(h), label: `${String(h).padStart(2, '0')}:00` }));
const STATUSES = [
  { value: 'active', label: 'Active: enrolled leads get their steps' },
  { value: 'paused', label: 'Paused: nothing is sent until you resume' },
];

/**
 * The sequence builder (create and edit). Steps are numbered slots: the saved steps, then empty
 * ones behind "Add step N" disclosures (no script needed); an empty slot is left out. Steps that
 * already went out to a lead (`locked`) are shown as they are and sent back unchanged.
 */
export function SequenceBuilder({
  siteId,
  sequence,
  locked = 0,
  timeZone,
  variables,
}: {
  siteId: string;
  sequence?: BuilderValues;
  locked?: number;
  timeZone: string;
  variables: string[];
}) {
  const [state, action] = useActionState(
    forSite(sequence?.id ? updateSequenceAction : createSequenceAction, siteId),
    {} as FormState<{ siteId: string; id: string }>,
  );
  const sent = state.values;
  const e = state.errors ?? {};
  const value = (name: string, initial: string) => (sent ? (sent[name] ?? '') : initial);
  const checked = (name: string, option: string, initial: boolean) => (sent ? (sent[name] ?? '').split(',').includes(option) : initial);
  const steps = sequence?.steps ?? [];
  const slots = Math.min(20, Math.max(steps.length + 2, 3));
  const window = sequence?.send_window ?? null;
  const hourField = (name: 'start_hour' | 'end_hour', label: string, initial: number) => (
    <SelectField name={name} label={label} options={HOURS} defaultValue={value(name, String(initial))} error={e[`send_window.${name}`]} />
  );
  return (
    <form action={action} noValidate className="sequence-builder">
      <FormError message={e.form} />
      {sequence?.id && <input type="hidden" name="sequence_id" value={sequence.id} />}
      <Field
        name="name"
        label="Name"
        type="text"
        placeholder="New leads: welcome and follow-up"
        defaultValue={value('name', sequence?.name ?? '')}
        error={e.name}
      />

      <fieldset className="group steps">
        <legend>Steps</legend>
        <p className="hint">
          Emails, each sent after the delay before it, written by you or drafted by the email agent from your instructions. Variables:{' '}
          {variables.map((v) => `{{${v}}}`).join(' ')}; a fallback after a bar is used when the lead has none: <code>{'{{first_name|there}}'}</code>.
          A reply, a bounce or an unsubscribe stops the lead’s sequence; the unsubscribe link is added at the end of every email.
        </p>
        {e.steps && <p className="error">{e.steps}</p>}
        <ol className="step-list">
          {Array.from({ length: slots }, (_, slot) => {
            const saved = steps[slot];
            const fields = <StepFields slot={slot} step={saved} value={value} errors={e} locked={slot < locked} />;
            const typed = sent && ['subject', 'body', 'subject_variants'].some((f) => (sent[`steps.${slot}.${f}`] ?? '').trim() !== '');
            if (saved || slot === 0) return <li key={slot}>{fields}</li>;
            return (
              <li key={slot}>
                <details className="add-step" open={Boolean(typed)}>
                  <summary className="button small">+ Add step {slot + 1}</summary>
                  {fields}
                </details>
              </li>
            );
          })}
        </ol>
      </fieldset>

      <fieldset className="group">
        <legend>Sending</legend>
        <div className="field check-line">
          <label>
            <input type="checkbox" name="send_window" defaultChecked={sent ? sent.send_window === 'on' : window !== null} /> Send only on these days
            and hours
          </label>
        </div>
        <div className="checks" role="group" aria-label="Days">
          {WEEKDAYS.map((d, i) => (
            <label key={d}>
              <input
                type="checkbox"
                name="window_days"
                value={i + 1}
                defaultChecked={checked('window_days', String(i + 1), window ? window.days.includes(i + 1) : i < 5)}
              />{' '}
              {d}
            </label>
          ))}
        </div>
        {e['send_window.days'] && <p className="error">{e['send_window.days']}</p>}
        <div className="row hours">
          {hourField('start_hour', 'From', window?.start_hour ?? 9)}
          {hourField('end_hour', 'Until', window?.end_hour ?? 17)}
        </div>
        <p className="hint">
          Hours in the site’s time zone, <strong>{timeZone}</strong> (Business settings). A step due outside the window waits for its next hour.
        </p>
        {e.send_window && <p className="error">{e.send_window}</p>}
        <div className="row">
          <Field
            name="daily_cap"
            label="Daily cap (optional)"
            type="number"
            inputMode="numeric"
            min={1}
            placeholder="No cap"
            hint="At most this many emails of the site a day; the rest wait for the next day."
            defaultValue={value('daily_cap', sequence?.daily_cap?.toString() ?? '')}
            error={e.daily_cap}
          />
          <Field
            name="domain_per_minute"
            label="Per domain, per minute (optional)"
            type="number"
            inputMode="numeric"
            min={1}
            placeholder="No limit"
            hint="At most this many emails a minute to one recipient domain, so a burst does not look like spam."
            defaultValue={value('domain_per_minute', sequence?.domain_per_minute?.toString() ?? '')}
            error={e.domain_per_minute}
          />
        </div>
      </fieldset>

      <div className="field check-line">
        <label>
          <input type="checkbox" name="tracking" defaultChecked={sent ? sent.tracking === 'on' : (sequence?.tracking ?? true)} /> Track opens and
          clicks (links go through signed redirects; HTML steps carry an open pixel)
        </label>
      </div>

      <fieldset className="group">
        <legend>Also stop when the lead becomes</legend>
        <div className="checks">
          {['converted', 'lost'].map((s) => (
            <label key={s}>
              <input
                type="checkbox"
                name="stop_on_status"
                value={s}
                defaultChecked={checked('stop_on_status', s, sequence ? sequence.stop_on_status.includes(s) : true)}
              />{' '}
              {s}
            </label>
          ))}
        </div>
        <p className="hint">A reply, a bounce and an unsubscribe always stop it.</p>
        {e.stop_on_status && <p className="error">{e.stop_on_status}</p>}
      </fieldset>

      {!sequence?.id && <SelectField name="status" label="Once created" options={STATUSES} defaultValue={value('status', 'active')} />}
      <div className="builder-actions">
        <SubmitButton pending="Saving…">{sequence?.id ? 'Save sequence' : 'Create sequence'}</SubmitButton>
      </div>
    </form>
  );
}

function StepFields({
  slot,
  step,
  value,
  errors,
  locked,
}: {
  slot: number;
  step: Step | undefined;
  value: (name: string, initial: string) => string;
  errors: Record<string, string>;
  locked: boolean;
}) {
  const at = (f: string) => `steps.${slot}.${f}`;
  const delay = splitDelay(step?.delay_minutes ?? (slot === 0 ? 0 : 3 * 1_440));
  const variants = (step?.subject_variants ?? []).join('\n');
  if (locked && step) {
    // Sent to leads already: shown, and sent back as it is.
    return (
      <fieldset className="group step locked" aria-describedby={`step-${slot}-locked`}>
        <legend>Step {slot + 1}</legend>
        <p className="hint" id={`step-${slot}-locked`}>
          <span className="badge completed">sent</span> Leads received this step already: it can no longer change.
        </p>
        <input type="hidden" name={at('locked')} value="1" />
        <input type="hidden" name={at('delay')} value={delay.amount} />
        <input type="hidden" name={at('delay_unit')} value={delay.unit} />
        <input type="hidden" name={at('subject')} value={step.subject} />
        <input type="hidden" name={at('subject_variants')} value={variants} />
        <input type="hidden" name={at('body')} value={step.body} />
        <input type="hidden" name={at('mode')} value={stepMode(step)} />
        <p>
          <strong className="wrap">{step.subject}</strong>
          {variants && <span className="sub wrap">A/B: {step.subject_variants!.join(' · ')}</span>}
        </p>
        <pre className="message-body">{step.body}</pre>
        {errors[at('subject')] && <p className="error">{errors[at('subject')]}</p>}
      </fieldset>
    );
  }
  return (
    <fieldset className="group step">
      <legend>Step {slot + 1}</legend>
      <div className="row delay">
        <Field
          name={at('delay')}
          id={`step-${slot}-delay`}
          label={slot === 0 ? 'Wait after enrollment' : `Wait after step ${slot}`}
          type="number"
          inputMode="numeric"
          min={0}
          defaultValue={value(at('delay'), String(delay.amount))}
          error={errors[at('delay')]}
        />
        <SelectField
          id={`step-${slot}-unit`}
          name={at('delay_unit')}
          label="Unit"
          options={DELAY_UNITS}
          defaultValue={value(at('delay_unit'), delay.unit)}
        />
      </div>
      <Field
        name={at('subject')}
        id={`step-${slot}-subject`}
        label="Subject"
        type="text"
        placeholder={slot === 0 ? 'Quick question, {{first_name|there}}' : 'Following up, {{first_name|there}}'}
        defaultValue={value(at('subject'), step?.subject ?? '')}
        error={errors[at('subject')]}
      />
      <TextAreaField
        name={at('subject_variants')}
        id={`step-${slot}-variants`}
        label="Other subjects to test (A/B, optional)"
        rows={2}
        hint="One per line, up to 3: each lead gets one of the subjects in turn, and the step’s figures show the split."
        defaultValue={value(at('subject_variants'), variants)}
        error={errors[at('subject_variants')]}
      />
      <SelectField id={`step-${slot}-mode`} name={at('mode')} label="Written" options={STEP_MODES} defaultValue={value(at('mode'), stepMode(step))} />
      <TextAreaField
        name={at('body')}
        id={`step-${slot}-body`}
        label="Body (for the agent: its instructions)"
        rows={7}
        placeholder={'Hi {{first_name|there}},\n\n…'}
        defaultValue={value(at('body'), step?.body ?? '')}
        error={errors[at('body')]}
      />
    </fieldset>
  );
}

/** Pause or resume. */
export function SequenceStatusButton({ siteId, sequenceId, status }: { siteId: string; sequenceId: string; status: 'active' | 'paused' }) {
  const next = status === 'active' ? 'paused' : 'active';
  return (
    <ActionButton
      action={forSite(setSequenceStatusAction, siteId)}
      fields={{ sequence_id: sequenceId, status: next }}
      pending={next === 'paused' ? 'Pausing…' : 'Resuming…'}
      className={next === 'paused' ? 'button small' : 'button small primary'}
      formClass="inline-form"
    >
      {next === 'paused' ? 'Pause' : 'Resume'}
    </ActionButton>
  );
}

type Choice = { value: string; label: string };

/** A choice of the form: what was chosen before a refusal, else the placeholder (or the first choice without one). */
function Select({
  value,
  options,
  placeholder,
  ...field
}: {
  name: string;
  label: string;
  options: Choice[];
  value?: string;
  error?: string;
  placeholder?: string;
}) {
  return <SelectField {...field} options={options} placeholder={placeholder} defaultValue={value ?? (placeholder ? '' : options[0]?.value)} />;
}

/**
 * A step written for a lead of the site, and a test of it sent to one of the owner's verified
 * addresses: one form, two buttons (each posts its own action, with or without script).
 */
export function PreviewAndTest({
  siteId,
  sequenceId,
  steps,
  leads,
  recipients,
  noRecipients,
}: {
  siteId: string;
  sequenceId: string;
  steps: Choice[];
  leads: Choice[];
  recipients: string[];
  noRecipients: ReactNode;
}) {
  const [preview, runPreview] = useActionState(forSite(previewStepAction, siteId), {} as FormState<StepPreview>);
  const [test, runTest] = useActionState(forSite(testSendStepAction, siteId), {} as FormState<string>);
  const v = test.values ?? preview.values ?? {};
  const e = { ...preview.errors, ...test.errors };
  const shown = preview.result;
  return (
    <form action={runPreview} noValidate className="preview-form">
      <input type="hidden" name="sequence_id" value={sequenceId} />
      <FormError message={e.form} />
      <div className="row">
        <Select name="step" label="Step" options={steps} value={v.step} error={e.step} />
        <Select name="lead_id" label="Written for the lead" options={leads} value={v.lead_id} error={e.lead_id} />
      </div>
      <div className="actions">
        <SubmitButton pending="Writing…" className="button">
          Preview
        </SubmitButton>
      </div>
      {shown && (
        <div className="preview" data-testid="step-preview">
          <p className="sub">
            Step {shown.step + 1} to {shown.lead.name} &lt;{shown.lead.email}&gt;
          </p>
          {shown.subjects.map((s, i) => (
            <p key={i} className="preview-subject">
              {shown.subjects.length > 1 && <span className="badge info">{String.fromCharCode(65 + i)}</span>} <strong className="wrap">{s}</strong>
            </p>
          ))}
          <pre className="message-body">{shown.body}</pre>
          <p className="hint">The unsubscribe link is added below the text when it is sent.</p>
        </div>
      )}
      <h3>Send a test</h3>
      {recipients.length === 0 ? (
        noRecipients
      ) : (
        <>
          <Select name="to" label="To your verified address" options={recipients.map((r) => ({ value: r, label: r }))} value={v.to} error={e.to} />
          <p role="status" className="status">
            {test.result}
          </p>
          <button type="submit" formAction={runTest} className="button">
            Send test
          </button>
        </>
      )}
    </form>
  );
}

const enrolledText = (r: EnrollCounts) =>
  [
    `${r.enrolled} enrolled`,
    `${r.already_enrolled} already enrolled`,
    `${r.suppressed} suppressed (skipped)`,
    ...(r.ineligible ? [`${r.ineligible} skipped for their status`] : []),
  ].join(' · ');

/** Enrolls a segment's leads. */
export function EnrollSegmentForm({ siteId, sequenceId, segments }: { siteId: string; sequenceId: string; segments: Choice[] }) {
  const [state, action] = useActionState(forSite(enrollAction, siteId), {} as FormState<EnrollCounts>);
  const e = state.errors ?? {};
  return (
    <form action={action} noValidate className="enroll-form">
      <input type="hidden" name="sequence_id" value={sequenceId} />
      <FormError message={e.form} />
      <div className="row end">
        <Select
          name="segment_id"
          label="Segment"
          options={segments}
          value={state.values?.segment_id}
          error={e.segment_id}
          placeholder="Choose a segment"
        />
        <div className="field">
          <SubmitButton pending="Enrolling…">Enroll segment</SubmitButton>
        </div>
      </div>
      <p role="status" className="status" data-testid="enroll-result">
        {state.result && enrolledText(state.result)}
      </p>
    </form>
  );
}

/** The leads page's "Enroll in sequence": the ticked rows' boxes belong to this form (`form="enroll-leads"`). */
export function EnrollLeadsForm({ siteId, sequences }: { siteId: string; sequences: Choice[] }) {
  const [state, action] = useActionState(forSite(enrollAction, siteId), {} as FormState<EnrollCounts>);
  const e = state.errors ?? {};
  return (
    <form action={action} id="enroll-leads" noValidate className="enroll-form">
      <FormError message={e.form ?? e.lead_ids} />
      <div className="row end">
        <Select name="sequence_id" label="Enroll the ticked leads in" options={sequences} value={state.values?.sequence_id} error={e.sequence_id} />
        <div className="field">
          <SubmitButton pending="Enrolling…">Enroll in sequence</SubmitButton>
        </div>
      </div>
      <p role="status" className="status" data-testid="enroll-result">
        {state.result && enrolledText(state.result)}
      </p>
    </form>
  );
}

/** Takes a lead out of the sequence, after a confirmation. */
export function UnenrollButton({ siteId, sequenceId, leadId, email }: { siteId: string; sequenceId: string; leadId: string; email: string }) {
  return (
    <RemoveButton
      action={forSite(unenrollAction, siteId)}
      target={{ sequence_id: sequenceId, lead_id: leadId }}
      verb="Unenroll"
      subject={email}
      focusAfter="enrollments-heading"
    >
      Nothing more of this sequence is sent to {email}. The lead stays listed as stopped and cannot be enrolled in it again.
    </RemoveButton>
  );
}

/**
 * One draft of the email agent waiting for review: read, edited (subject and body) and approved,
 * after which it goes out within the send window, the cap and the throttle.
 */
export function ApproveDraftForm({
  siteId,
  sequenceId,
  leadId,
  subject,
  body,
}: {
  siteId: string;
  sequenceId: string;
  leadId: string;
  subject: string;
  body: string;
}) {
  const [state, action] = useActionState(forSite(approveDraftAction, siteId), {} as FormState<undefined>);
  const e = state.errors ?? {};
  const id = `draft-${leadId}`;
  return (
    <form action={action} noValidate className="draft-form">
      <input type="hidden" name="sequence_id" value={sequenceId} />
      <input type="hidden" name="lead_id" value={leadId} />
      <FormError message={e.form} />
      <Field name="subject" id={`${id}-subject`} label="Subject" type="text" defaultValue={state.values?.subject ?? subject} error={e.subject} />
      <TextAreaField name="body" id={`${id}-body`} label="Body" rows={10} defaultValue={state.values?.body ?? body} error={e.body} />
      <div className="actions">
        <SubmitButton pending="Approving…">Approve and send</SubmitButton>
      </div>
    </form>
  );
}
