import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { getSequenceQuerySchema, SequenceDetailSchema, SequenceSchema, sequenceIdParams, updateSequenceBodySchema } from '@/lib/sequences/schema';
import { getSequence, updateSequence } from '@/lib/sequences/service';

const tags = ['Sequences'];

// GET /api/sequences/{id} — one sequence: steps, figures per step and in total, a page of its enrollments
export const GET = defineRoute({
  summary: 'Get a sequence',
  tags,
  auth: policies.keyRead,
  params: sequenceIdParams,
  query: getSequenceQuerySchema,
  response: SequenceDetailSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params, query }) => getSequence(siteId, params.id, query),
});

// PATCH /api/sequences/{id} — pause or resume, rename, change options or the steps not sent yet
export const PATCH = defineRoute({
  summary: 'Update a sequence',
  description: 'Only the given fields change. Steps already sent to a lead must be given unchanged in `steps` (409 CONFLICT naming the step).',
  tags,
  auth: policies.keyWrite,
  params: sequenceIdParams,
  body: updateSequenceBodySchema,
  response: SequenceSchema,
  errors: ['NOT_FOUND', 'CONFLICT'],
  handler: ({ siteId, params, body }) => updateSequence(siteId, params.id, body),
});
