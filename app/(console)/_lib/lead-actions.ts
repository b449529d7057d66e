'use server';

import { z } from 'zod';
import { uuidSchema } from '@/lib/core/schemas';
import { LEAD_STATUSES, updateLeadInputSchema } from '@/lib/leads/schema';
import { setLeadStatus, updateLead } from '@/lib/leads/service';
import { defineAction } from './define-action';
import { text } from './forms';

/** The fields of the lead form; an emptied optional field is cleared (null), as the API's update does. */
const LEAD_FORM_FIELDS = ['name', 'email', 'phone', 'company', 'position', 'notes', 'segment_id'] as const;
const CLEARABLE = new Set(['phone', 'company', 'position', 'notes', 'segment_id']);

const leadPaths = (leadId: string) => ['/leads', `/leads/${leadId}`];

/** The form's `custom.<key>` fields: each a custom property's value as typed (an emptied one clears it). */
function customValues(form: FormData): Record<string, string | null> | undefined {
  const values: Record<string, string | null> = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string' && name.startsWith('custom.')) values[name.slice('custom.'.length)] = value.trim() === '' ? null : value;
  }
  return Object.keys(values).length > 0 ? values : undefined;
}

/** Edits a lead, as POST /api/agents/tools/leads/update does (custom property numbers may be typed as text). */
export const updateLeadAction = defineAction({
  permission: 'crm.write',
  schema: updateLeadInputSchema,
  input: (form, siteId) => ({
    site_id: siteId,
    lead_id: text(form, 'lead_id'),
    ...Object.fromEntries(LEAD_FORM_FIELDS.map((f) => [f, text(form, f).trim() === '' && CLEARABLE.has(f) ? null : text(form, f)])),
    custom_properties: customValues(form),
  }),
  run: async ({ site, input }) => {
    await updateLead(site.id, input, { strict: false });
    return 'Saved.';
  },
  revalidate: (input) => leadPaths(input.lead_id),
});

/** Moves a lead along the pipeline (new → contacted → qualified → converted, or lost). */
export const setLeadStatusAction = defineAction({
  permission: 'crm.write',
  schema: z.object({ lead_id: uuidSchema, status: z.enum(LEAD_STATUSES) }),
  run: async ({ site, input }) => {
    const lead = await setLeadStatus(site.id, input.lead_id, input.status);
    return `Status is now ${lead.status}.`;
  },
  revalidate: (input) => leadPaths(input.lead_id),
});
