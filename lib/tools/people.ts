import { z } from 'zod';
import { paginationMeta, siteIdSchema, uuidSchema } from '@/lib/core/schemas';
import { MergeResultSchema, mergeBodySchema, NOTE_MAX, NoteSchema, PaginationShape, TIMELINE_TYPES, TimelineSchema } from '@/lib/people/schema';
import { addNote, mergeLead, notesOf, timelineOf } from '@/lib/people/service';
import { defineTool } from './define-tool';

const leadId = uuidSchema.describe("The site's lead");

export const addLeadNoteTool = defineTool({
  name: 'addLeadNote',
  effect: 'append',
  path: 'leads/notes/add',
  title: 'Write a note on a lead',
  description: `Adds a plain-text note (1–${NOTE_MAX} characters) to the lead; its author is the API key. It shows on the lead's timeline.`,
  scope: 'write',
  creates: true,
  input: z.strictObject({
    site_id: siteIdSchema,
    lead_id: leadId,
    body: z.string().trim().min(1, 'body must not be empty').max(NOTE_MAX).describe('The note'),
  }),
  output: z.object({ note: NoteSchema }),
  errors: ['NOT_FOUND'],
  run: async ({ siteId, principal }, input) => ({ note: await addNote(siteId, input.lead_id, principal, input.body) }),
});

export const getLeadNotesTool = defineTool({
  name: 'getLeadNotes',
  effect: 'read',
  path: 'leads/notes/get',
  title: "List a lead's notes",
  description: 'The notes written on the lead, newest first; `limit` 1–100 (default 20), `offset`.',
  scope: 'read',
  input: z.strictObject({
    site_id: siteIdSchema,
    lead_id: leadId,
    limit: z.number().int().min(1).max(100).default(20).describe('Page size, 1–100 (default 20)'),
    offset: z.number().int().min(0).default(0).describe('Notes to skip (default 0)'),
  }),
  output: z.object({ notes: z.array(NoteSchema), ...PaginationShape }),
  errors: ['NOT_FOUND'],
  run: async ({ siteId }, input) => {
    const { items, total } = await notesOf(siteId, input.lead_id, input);
    return { notes: items, ...paginationMeta(total, input.limit, input.offset) };
  },
});

export const getLeadTimelineTool = defineTool({
  name: 'getLeadTimeline',
  effect: 'read',
  path: 'leads/timeline',
  title: "A lead's timeline",
  description:
    'Everything that happened with the lead, newest first: visits with their pages (`session`), conversions, forms and custom events ' +
    '(`event`), emails in and out, notes, status and field changes, agent conversations and sequence steps. Pass `next_cursor` as ' +
    '`cursor` for older items; `types` keeps only some kinds.',
  scope: 'read',
  input: z.strictObject({
    site_id: siteIdSchema,
    lead_id: leadId,
    limit: z.number().int().min(1).max(100).default(50).describe('Items per page, 1–100 (default 50)'),
    cursor: z.string().max(200).optional().describe('The `next_cursor` of the previous page'),
    types: z
      .array(z.enum(TIMELINE_TYPES))
      .min(1)
      .optional()
      .describe(`Only these kinds (${TIMELINE_TYPES.join(', ')})`),
  }),
  output: TimelineSchema,
  errors: ['NOT_FOUND'],
  run: ({ siteId }, input) => timelineOf(siteId, input.lead_id, input),
});

export const mergeLeadsTool = defineTool({
  name: 'mergeLeads',
  effect: 'overwrite',
  path: 'leads/merge',
  title: 'Merge two leads of one person',
  description:
    "Moves the other lead's visits, emails, notes, history, conversations and sequence enrollments to `lead_id` (the more advanced " +
    "enrollment stays where both are in one sequence), fills the kept lead's empty fields and custom properties from the other, and " +
    'deletes the other lead. `fields` chooses per field whose value is kept (`kept` or `other`). Both must be leads of the site (404).',
  scope: 'write',
  input: mergeBodySchema.extend({ lead_id: uuidSchema.describe('The lead that is kept') }),
  output: MergeResultSchema,
  errors: ['NOT_FOUND'],
  run: ({ siteId }, { lead_id, ...body }) => mergeLead(siteId, lead_id, body),
});
