'use server';

import { z } from 'zod';
import { ApiError } from '@/lib/core/errors';
import { uuidSchema } from '@/lib/core/schemas';
import { previewStep, type StepPreview } from '@/lib/sequences/preview';
import { createSequenceBodySchema, updateSequenceBodySchema } from '@/lib/sequences/schema';
import { approveDraft, createSequence, enroll, getSequence, unenroll, updateSequence } from '@/lib/sequences/service';
import { testSendStep } from '@/lib/sequences/test-send';
import { defineAction } from './define-action';
import { FormErrors, optionalNumber, optionalText, safeParseForm, text } from './forms';
import { publicOrigin } from './request-origin';
import { builderErrorKey, builderInput, type EnrollCounts } from './sequence-form';

/** The builder's fields as the API's body, checked by the API's own schema: its messages go next to the builder's fields. */
function parsedBuilder<S extends z.ZodType>(schema: S, raw: ReturnType<typeof builderInput>): z.output<S> {
  const parsed = safeParseForm(schema, raw.input);
  if (parsed.success) return parsed.data;
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[builderErrorKey(issue.path, raw.slots)] ??= issue.message;
  throw new FormErrors(errors);
}

const builderForm = z.custom<ReturnType<typeof builderInput>>((v) => typeof v === 'object' && v !== null);
/** A refusal that names a step (`steps.2`, a step already sent) goes next to that step. */
const stepField = (error: ApiError) => {
  const field = error.details?.field;
  return typeof field === 'string' ? field : 'form';
};
const sequencePaths = (id: string) => ['/sequences', `/sequences/${id}`, `/sequences/${id}/edit`];

/** Creates a sequence, as POST /api/sequences does, and opens its page. */
export const createSequenceAction = defineAction({
  permission: 'crm.write',
  schema: builderForm,
  input: (form, siteId) => builderInput(form, siteId, { withStatus: true }),
  run: async ({ site, input }) => {
    const body = parsedBuilder(createSequenceBodySchema, input);
    return { siteId: site.id, id: (await createSequence(site.id, body)).id };
  },
  errorField: stepField,
  revalidate: () => ['/sequences'],
  redirect: (r) => `/console/sites/${r.siteId}/sequences/${r.id}`,
});

/** Saves the builder over a sequence, as PATCH /api/sequences/{id} does: steps already sent must stay as they were. */
export const updateSequenceAction = defineAction({
  permission: 'crm.write',
  schema: builderForm,
  input: (form, siteId) => builderInput(form, siteId, { withStatus: false }),
  run: async ({ site, input }) => {
    const id = uuidSchema.safeParse(input.sequenceId);
    if (!id.success) throw new FormErrors({ form: 'This sequence does not exist' });
    const body = parsedBuilder(updateSequenceBodySchema, input);
    if (input.locked.length > 0 && body.steps) {
      // Steps sent already go back exactly as stored (the page shows them; the form only carries them).
      const stored = (await getSequence(site.id, id.data, { site_id: site.id, limit: 1, offset: 0 })).steps;
      input.slots.forEach((slot, i) => {
        if (input.locked.includes(slot) && stored[slot]) body.steps![i] = stored[slot];
      });
    }
    return { siteId: site.id, id: (await updateSequence(site.id, id.data, body)).id };
  },
  errorField: stepField,
  revalidate: (input) => (input.sequenceId ? sequencePaths(input.sequenceId) : ['/sequences']),
  redirect: (r) => `/console/sites/${r.siteId}/sequences/${r.id}`,
});

/** Pauses or resumes a sequence (PATCH /api/sequences/{id} with `status`). */
export const setSequenceStatusAction = defineAction({
  permission: 'crm.write',
  schema: z.object({ sequence_id: uuidSchema, status: z.enum(['active', 'paused']) }),
  run: async ({ site, input }): Promise<string> => {
    const s = await updateSequence(site.id, input.sequence_id, { site_id: site.id, status: input.status });
    return s.status === 'paused' ? 'Paused: nothing is sent until you resume.' : 'Resumed: due steps go out now.';
  },
  revalidate: (input) => sequencePaths(input.sequence_id),
});

const stepLead = z.object({
  sequence_id: uuidSchema,
  step: z.coerce.number().int().min(1, 'Choose a step').max(20),
  lead_id: uuidSchema,
});
const stepLeadInput = (form: FormData) => ({
  sequence_id: text(form, 'sequence_id'),
  step: optionalNumber(form, 'step'),
  lead_id: optionalText(form, 'lead_id'),
});

/** A step written for one of the site's leads, shown on the form. */
export const previewStepAction = defineAction({
  shownOnce: true,
  permission: 'crm.write',
  schema: stepLead,
  input: stepLeadInput,
  run: ({ site, input }): Promise<StepPreview> => previewStep(site.id, input.sequence_id, input.step - 1, input.lead_id),
  errorField: 'lead_id',
  refill: (values) => values,
});

/** Sends a step, written for a lead, to one of the owner's verified test recipients (never to the lead). */
export const testSendStepAction = defineAction({
  shownOnce: true,
  permission: 'crm.write',
  schema: stepLead.extend({ to: z.string().email('Choose a verified test recipient') }),
  input: (form) => ({ ...stepLeadInput(form), to: text(form, 'to') }),
  run: async ({ site, input }) => {
    const sent = await testSendStep(site.id, input.sequence_id, { step: input.step - 1, lead_id: input.lead_id, to: input.to }, await publicOrigin());
    return sent.status === 'stored'
      ? `“${sent.subject}” kept in the outbox for ${sent.to} (no SMTP server is configured: nothing leaves this machine).`
      : `“${sent.subject}” sent to ${sent.to}.`;
  },
  errorField: (error) => (error.code === 'FORBIDDEN' ? 'to' : 'form'),
  refill: (values) => values,
  revalidate: () => ['/email'],
});

/** Enrolls a segment's leads or the leads ticked in a list, as POST /api/sequences/{id}/enrollments does. */
export const enrollAction = defineAction({
  shownOnce: true,
  permission: 'crm.write',
  schema: z.object({
    sequence_id: uuidSchema.describe('Sequence'),
    segment_id: uuidSchema.optional(),
    lead_ids: z.array(uuidSchema).max(1_000).optional(),
  }),
  input: (form) => {
    const leadIds = form.getAll('lead_ids').filter((v): v is string => typeof v === 'string' && v !== '');
    return {
      sequence_id: text(form, 'sequence_id'),
      segment_id: optionalText(form, 'segment_id'),
      lead_ids: leadIds.length ? leadIds : undefined,
    };
  },
  run: async ({ site, input }): Promise<EnrollCounts> => {
    const body = input.lead_ids
      ? { site_id: site.id, lead_ids: input.lead_ids }
      : input.segment_id
        ? { site_id: site.id, segment_id: input.segment_id }
        : undefined;
    if (!body) throw new FormErrors({ form: 'Choose a segment, or tick the leads to enroll' });
    const { enrollments: _made, ...counts } = await enroll(site.id, input.sequence_id, body);
    return counts;
  },
  errorField: 'form',
  revalidate: (input) => [...sequencePaths(input.sequence_id), '/leads'],
});

/** Takes a lead out of a sequence (DELETE /api/sequences/{id}/enrollments/{lead_id}): nothing more is sent to it. */
export const unenrollAction = defineAction({
  permission: 'crm.write',
  schema: z.object({ sequence_id: uuidSchema, lead_id: uuidSchema }),
  run: async ({ site, input }) => {
    await unenroll(site.id, input.sequence_id, input.lead_id);
  },
  revalidate: (input) => [...sequencePaths(input.sequence_id), `/leads/${input.lead_id}`],
});

/**
 * Approves the email agent's draft waiting in a lead's enrollment, with the subject and body as the
 * owner left them (POST /api/sequences/{id}/enrollments/{lead_id}/approve): it goes out now, within
 * the send window, the cap and the throttle.
 */
export const approveDraftAction = defineAction({
  permission: 'crm.write',
  schema: z.object({
    sequence_id: uuidSchema,
    lead_id: uuidSchema,
    subject: z.string().trim().min(1, 'Give the email a subject').max(500),
    body: z.string().trim().min(1, 'Write the email').max(50_000),
  }),
  input: (form) => ({
    sequence_id: text(form, 'sequence_id'),
    lead_id: text(form, 'lead_id'),
    subject: text(form, 'subject'),
    body: text(form, 'body').replace(/\r\n?/g, '\n'),
  }),
  run: async ({ site, input }) => {
    const { sequence_id, lead_id, ...edits } = input;
    await approveDraft(site.id, sequence_id, lead_id, { site_id: site.id, ...edits });
  },
  errorField: 'form',
  revalidate: (input) => [...sequencePaths(input.sequence_id), `/leads/${input.lead_id}`],
});
