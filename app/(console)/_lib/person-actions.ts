'use server';

import { z } from 'zod';
import type { SessionPrincipal } from '@/lib/core/principal';
import { uuidSchema } from '@/lib/core/schemas';
import { siteLead } from '@/lib/leads/service';
import { createNoteBodySchema, MERGE_FIELDS, mergeBodySchema } from '@/lib/people/schema';
import { addNote, eraseAnonymousVisitor, erasePerson, mergeLead, removeNote } from '@/lib/people/service';
import type { User } from '@/lib/users/schema';
import { defineAction } from './define-action';
import { FormErrors, text } from './forms';

const memberOf = (user: User): SessionPrincipal => ({ kind: 'session', user });
const leadPaths = (leadId: string) => ['/leads', `/leads/${leadId}`];

/** Writes a note on a lead, as POST /api/leads/{lead_id}/notes does; the author is the member. */
export const addNoteAction = defineAction({
  permission: 'crm.write',
  schema: createNoteBodySchema.omit({ site_id: true }).extend({ lead_id: uuidSchema }),
  input: (form) => ({ lead_id: text(form, 'lead_id'), body: text(form, 'body') }),
  run: async ({ site, user, input }) => {
    await addNote(site.id, input.lead_id, memberOf(user), input.body);
    return 'Note added.';
  },
  revalidate: (input) => leadPaths(input.lead_id),
});

/** Deletes a note of a lead. */
export const deleteNoteAction = defineAction({
  permission: 'crm.write',
  schema: z.object({ lead_id: uuidSchema, note_id: uuidSchema }),
  run: async ({ site, input }) => {
    await removeNote(site.id, input.lead_id, input.note_id);
    return 'Note deleted.';
  },
  revalidate: (input) => leadPaths(input.lead_id),
});

/** Merges the other lead into this one with the values chosen per field (the merge page's radios). */
export const mergeLeadsAction = defineAction({
  permission: 'crm.write',
  schema: mergeBodySchema.omit({ site_id: true }).extend({ lead_id: uuidSchema }),
  input: (form) => ({
    lead_id: text(form, 'lead_id'),
    other_lead_id: text(form, 'other_lead_id'),
    fields: Object.fromEntries(
      MERGE_FIELDS.flatMap((f) => (form.get(`field_${f}`) === 'other' ? [[f, 'other']] : form.get(`field_${f}`) === 'kept' ? [[f, 'kept']] : [])),
    ),
  }),
  run: async ({ site, input: { lead_id, ...body } }) => ({ site_id: site.id, ...(await mergeLead(site.id, lead_id, { site_id: site.id, ...body })) }),
  revalidate: (input) => [...leadPaths(input.lead_id), `/leads/${input.other_lead_id}`],
  redirect: (result) => `/console/sites/${result.site_id}/leads/${result.lead_id}?merged=1`,
});

/** Erases a lead and everything about the person, once its email was typed to confirm. */
export const eraseLeadAction = defineAction({
  permission: 'people.erase',
  schema: z.object({ lead_id: uuidSchema, confirm: z.string() }),
  input: (form) => ({ lead_id: text(form, 'lead_id'), confirm: text(form, 'confirm').trim() }),
  run: async ({ site, user, input }) => {
    const lead = await siteLead(site.id, input.lead_id);
    if (lead && input.confirm.toLowerCase() !== lead.email) throw new FormErrors({ confirm: `Type the lead's email, ${lead.email}, to confirm` });
    await erasePerson(site.id, input.lead_id, memberOf(user));
    return site.id;
  },
  revalidate: () => ['/leads', '/sessions'],
  redirect: (siteId) => `/console/sites/${siteId}/leads?erased=1`,
});

/** Erases a visitor without a lead (the session page), once ERASE was typed to confirm. */
export const eraseVisitorAction = defineAction({
  permission: 'people.erase',
  schema: z.object({ visitor_id: uuidSchema, confirm: z.literal('ERASE', { error: 'Type ERASE to confirm' }) }),
  input: (form) => ({ visitor_id: text(form, 'visitor_id'), confirm: text(form, 'confirm').trim() }),
  run: async ({ site, user, input }) => {
    await eraseAnonymousVisitor(site.id, input.visitor_id, memberOf(user));
    return site.id;
  },
  revalidate: () => ['/sessions'],
  redirect: (siteId) => `/console/sites/${siteId}/sessions?erased=1`,
});
