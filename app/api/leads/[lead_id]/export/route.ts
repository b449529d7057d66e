import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { leadPathSchema, PersonExportSchema, siteQuerySchema } from '@/lib/people/schema';
import { exportPerson } from '@/lib/people/service';

// GET /api/leads/{lead_id}/export — everything stored about the person behind a lead (access request)
export const GET = defineRoute({
  summary: "Export a person's data",
  description:
    'JSON of everything stored about the person: the lead as stored, its visitors, their sessions with events, emails, notes, field ' +
    'history, conversations with their messages, sequence enrollments with the messages of their steps, and uploaded files’ metadata.',
  tags: ['People'],
  auth: policies.keyOrMember,
  params: leadPathSchema,
  query: siteQuerySchema,
  response: PersonExportSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params }) => exportPerson(siteId, params.lead_id),
});
