import { z } from 'zod';
import { paginationMeta } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { createNoteBodySchema, leadPathSchema, listNotesQuerySchema, NoteSchema } from '@/lib/people/schema';
import { addNote, notesOf } from '@/lib/people/service';

const tags = ['People'];

// POST /api/leads/{lead_id}/notes — write a note on a lead (the author is the member or the API key)
export const POST = defineRoute({
  summary: 'Write a note on a lead',
  description: 'Plain text, 1–10,000 characters. The author is the signed-in member, or the API key that wrote it. It shows on the lead’s timeline.',
  tags,
  auth: policies.keyOrMember,
  permission: 'crm.write',
  params: leadPathSchema,
  body: createNoteBodySchema,
  response: NoteSchema,
  status: 201,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params, body, principal }) => addNote(siteId, params.lead_id, principal, body.body),
});

// GET /api/leads/{lead_id}/notes — the notes of a lead, newest first
export const GET = defineRoute({
  summary: "List a lead's notes",
  description: 'Newest first. `meta` carries `{total, limit, offset, has_more}`.',
  tags,
  auth: policies.keyOrMember,
  params: leadPathSchema,
  query: listNotesQuerySchema,
  response: z.array(NoteSchema),
  errors: ['NOT_FOUND'],
  handler: async ({ siteId, params, query, res }) => {
    const { items, total } = await notesOf(siteId, params.lead_id, query);
    res.meta = paginationMeta(total, query.limit, query.offset);
    return items;
  },
});
