import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { enrollBodySchema, EnrollResultSchema, sequenceIdParams } from '@/lib/sequences/schema';
import { enroll } from '@/lib/sequences/service';

// POST /api/sequences/{id}/enrollments — enroll leads (by id or a segment's), once per sequence
export const POST = defineRoute({
  summary: 'Enroll leads in a sequence',
  description:
    'Leads enrolled before, leads whose address is on the suppression list and leads whose status the sequence stops on are ' +
    'skipped and counted. A lead id of another site is 404.',
  tags: ['Sequences'],
  auth: policies.keyWrite,
  params: sequenceIdParams,
  body: enrollBodySchema,
  response: EnrollResultSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params, body }) => enroll(siteId, params.id, body),
});
