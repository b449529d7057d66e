import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { routeGroup, withPageMeta } from '@/lib/http/route-group';
import { createNoteBodySchema, leadPathSchema, listNotesQuerySchema, NoteSchema } from '@/lib/people/schema';
import { addNote, notesOf } from '@/lib/people/service';

const route = routeGroup({ tags: ['People'], auth: policies.keyOrMember, params: leadPathSchema });

// POST /api/leads/{lead_id}/notes — write a note on a lead (the author is the member or the API key)
export const POST = route({
  summary: 'Write a note on a lead',
  description: 'Plain text, 1–10,000 characters. The author is the signed-in member, or the API key that wrote it. It shows on the lead’s timeline.',
  permission: 'crm.write',
  body: createNoteBodySchema,
  response: NoteSchema,
  status: 201,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params, body, principal }) => addNote(siteId, params.lead_id, principal, body.body),
});

// GET /api/leads/{lead_id}/notes — the notes of a lead, newest first
export const GET = route({
  summary: "List a lead's notes",
  description: 'Newest first. `meta` carries `{total, limit, offset, has_more}`.',
  query: listNotesQuerySchema,
  response: z.array(NoteSchema),
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params, query, res }) => withPageMeta(res, query, notesOf(siteId, params.lead_id, query)),
});
