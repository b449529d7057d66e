import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { leadPathSchema, mergeBodySchema, MergeResultSchema } from '@/lib/people/schema';
import { mergeLead } from '@/lib/people/service';

// POST /api/leads/{lead_id}/merge — merge another lead of the same person into this one
export const POST = defineRoute({
  summary: 'Merge two leads',
  description:
    'The other lead’s visitors, sessions, emails, notes, field history, conversations and sequence enrollments move to this lead ' +
    '(in a sequence both are in, the more advanced enrollment stays); its custom properties fill this lead’s gaps; `fields` chooses, ' +
    'per field, whose value is kept. The other lead is then deleted. All or nothing.',
  tags: ['People'],
  auth: policies.keyOrMember,
  permission: 'crm.write',
  params: leadPathSchema,
  body: mergeBodySchema,
  response: MergeResultSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params, body }) => mergeLead(siteId, params.lead_id, body),
});
