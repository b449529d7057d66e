import type { EnrollResult, Step } from '@/lib/sequences/schema';
import { optionalNumber, optionalText, text } from './forms';

/**
 * The sequence builder's form: its field names, and its fields as the body of POST/PATCH
 * /api/sequences. A step is a numbered slot (`steps.<slot>.subject`…); an untouched slot (no
 * subject, no body) is left out, so the API's `steps.<index>` may name another slot: errors are
 * put back next to the slot's own fields.
 */
const MAX_STEPS = 20;
export const DELAY_UNITS = [
  { value: 'minutes', label: 'minutes', minutes: 1 },
  { value: 'hours', label: 'hours', minutes: 60 },
  { value: 'days', label: 'days', minutes: 1_440 },
] as const;
export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** A delay in minutes in its largest whole unit: 4320 → 3 days. */
export function splitDelay(minutes: number): { amount: number; unit: (typeof DELAY_UNITS)[number]['value'] } {
  for (const u of [...DELAY_UNITS].reverse()) if (minutes > 0 && minutes % u.minutes === 0) return { amount: minutes / u.minutes, unit: u.value };
  return { amount: minutes, unit: 'minutes' };
}

/** "3 days", "1 hour", "immediately". */
export function delayText(minutes: number, first: boolean): string {
  if (minutes === 0) return first ? 'right after enrollment' : 'right after the previous step';
  const { amount, unit } = splitDelay(minutes);
  const word = amount === 1 ? unit.slice(0, -1) : unit;
  return `${amount} ${word} ${first ? 'after enrollment' : 'after the previous step'}`;
}

interface BuilderInput {
  sequenceId: string | undefined;
  /** The slot of each step given, in order: `steps.<i>` of the API is slot `slots[i]` of the form. */
  slots: number[];
  /** Slots shown as sent already (sent back as they are): the action puts the stored steps there. */
  locked: number[];
  input: Record<string, unknown>;
}

/**
 * How a step's body is written, as the builder offers it: by the owner (plain text or HTML) or by the email agent
 * from the body as instructions. A reviewed agent step (its drafts approved through the API) is kept when edited.
 */
export const STEP_MODES = [
  { value: 'text', label: 'By you, plain text', step: { kind: 'email', format: 'text' } },
  { value: 'html', label: 'By you, HTML (with an open pixel when tracking)', step: { kind: 'email', format: 'html' } },
  { value: 'agent', label: 'By the email agent from your instructions, sent as drafted', step: { kind: 'agent', review: false } },
  { value: 'agent-review', label: 'By the email agent, each draft approved before it goes', step: { kind: 'agent', review: true } },
] as const;

export function stepMode(step: Step | undefined): (typeof STEP_MODES)[number]['value'] {
  if (step?.kind === 'agent') return step.review === false ? 'agent' : 'agent-review';
  return step?.format === 'html' ? 'html' : 'text';
}

/** A browser posts a textarea's line breaks as CRLF: stored as LF. */
const lines = (value: string) => value.replace(/\r\n?/g, '\n');

const numberOr = (form: FormData, name: string) => optionalNumber(form, name) ?? null;

export function builderInput(form: FormData, siteId: string, { withStatus }: { withStatus: boolean }): BuilderInput {
  const steps: Record<string, unknown>[] = [];
  const slots: number[] = [];
  const locked: number[] = [];
  for (let slot = 0; slot < MAX_STEPS; slot++) {
    const at = (f: string) => `steps.${slot}.${f}`;
    const subject = lines(text(form, at('subject')));
    const body = lines(text(form, at('body')));
    const variants = lines(text(form, at('subject_variants')))
      .split(/\r?\n/)
      .map((v) => v.trim())
      .filter(Boolean);
    if (!subject.trim() && !body.trim() && variants.length === 0) continue;
    const amount = optionalNumber(form, at('delay'));
    const unit = DELAY_UNITS.find((u) => u.value === text(form, at('delay_unit'))) ?? DELAY_UNITS[0];
    slots.push(slot);
    if (form.get(at('locked')) === '1') locked.push(slot);
    const mode = STEP_MODES.find((m) => m.value === text(form, at('mode'))) ?? STEP_MODES[0];
    steps.push({
      delay_minutes: amount === undefined ? 0 : typeof amount === 'number' ? Math.round(amount * unit.minutes) : amount,
      subject,
      ...(variants.length && { subject_variants: variants }),
      body,
      ...mode.step,
    });
  }
  const windowOn = form.get('send_window') === 'on';
  const input: Record<string, unknown> = {
    site_id: siteId,
    name: text(form, 'name'),
    steps,
    send_window: windowOn
      ? {
          days: form.getAll('window_days').map((d) => Number(d)),
          start_hour: optionalNumber(form, 'start_hour') ?? 9,
          end_hour: optionalNumber(form, 'end_hour') ?? 17,
        }
      : null,
    daily_cap: numberOr(form, 'daily_cap'),
    domain_per_minute: numberOr(form, 'domain_per_minute'),
    stop_on_status: form.getAll('stop_on_status').filter((s) => typeof s === 'string'),
    tracking: form.get('tracking') === 'on',
  };
  if (withStatus) input.status = optionalText(form, 'status') ?? 'active';
  return { sequenceId: optionalText(form, 'sequence_id'), slots, locked, input };
}

/**
 * Where an error of the API's schema goes on the builder: a step's field (`steps.<slot>.subject`,
 * a variant's error under `steps.<slot>.subject_variants`), the send window's part
 * (`send_window.days`), else the top-level field.
 */
export function builderErrorKey(path: readonly PropertyKey[], slots: number[]): string {
  const [top, second, third] = path.map(String);
  if (top === 'steps' && second !== undefined) {
    const slot = slots[Number(second)] ?? Number(second);
    return third ? `steps.${slot}.${third === 'delay_minutes' ? 'delay' : third}` : `steps.${slot}.subject`;
  }
  if (top === 'send_window' && second) return `send_window.${second}`;
  return top ?? 'form';
}

/** What enrolling answers on a form: the counts, not the enrollments made. */
export type EnrollCounts = Omit<EnrollResult, 'enrollments'>;
