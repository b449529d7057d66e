import { ApiError, found } from '@/lib/core/errors';
import { findLead } from '@/lib/leads/service';
import { getSettings } from '@/lib/settings/service';
import { getSite } from '@/lib/sites/service';
import * as repo from './repo';
import type { Step } from './schema';
import { leadValues, renderTemplate, type TemplateValues } from './template';

/**
 * A step as one lead would receive it: its subjects (each A/B variant) and body with the lead's
 * and the site's values in place of the variables, rendered as the sender does.
 */
export interface StepPreview {
  step: number;
  lead: { id: string; name: string; email: string };
  /** The rendered subjects: `subject` first, then the A/B variants. */
  subjects: string[];
  body: string;
  /** Minutes after the previous step (after enrollment for the first). */
  delay_minutes: number;
}

/** The values a lead's messages are written with: the lead's own, the site's name and its industry. */
async function valuesFor(siteId: string, lead: Parameters<typeof leadValues>[0]): Promise<TemplateValues> {
  const [site, settings] = await Promise.all([getSite(siteId), getSettings(siteId)]);
  return { ...leadValues(lead), site_name: site?.name ?? null, industry: settings.industry ?? null };
}

/** The sequence's step `step` (from 0); a step it does not have is 404. */
async function stepOf(siteId: string, sequenceId: string, step: number): Promise<{ name: string; step: Step }> {
  const sequence = found(await repo.findSequence(siteId, sequenceId), 'Sequence');
  const steps = sequence.steps as Step[];
  if (!Number.isInteger(step) || step < 0 || step >= steps.length) throw new ApiError('NOT_FOUND', `The sequence has no step ${step + 1}`);
  return { name: sequence.name, step: steps[step] };
}

/** Step `step` of the sequence written for the lead `leadId` of the site. */
export async function previewStep(siteId: string, sequenceId: string, step: number, leadId: string): Promise<StepPreview> {
  const { step: s } = await stepOf(siteId, sequenceId, step);
  const lead = found(await findLead(siteId, leadId), 'Lead');
  const values = await valuesFor(siteId, lead);
  return {
    step,
    lead: { id: lead.id, name: lead.name, email: lead.email },
    subjects: [s.subject, ...(s.subject_variants ?? [])].map((subject) => renderTemplate(subject, values)),
    body: renderTemplate(s.body, values),
    delay_minutes: s.delay_minutes,
  };
}
