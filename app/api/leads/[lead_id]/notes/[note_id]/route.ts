import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { NoteSchema, notePathSchema, siteQuerySchema } from '@/lib/people/schema';
import { removeNote } from '@/lib/people/service';

// DELETE /api/leads/{lead_id}/notes/{note_id} — delete a note of a lead
export const DELETE = defineRoute({
  summary: 'Delete a note',
  description: 'Answers the deleted note. A note of another lead or site is a 404.',
  tags: ['People'],
  auth: policies.keyOrMember,
  permission: 'crm.write',
  params: notePathSchema,
  query: siteQuerySchema,
  response: NoteSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params }) => removeNote(siteId, params.lead_id, params.note_id),
});
