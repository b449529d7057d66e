import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { createSequenceBodySchema, SequenceSchema, siteQuerySchema } from '@/lib/sequences/schema';
import { createSequence, listSequences } from '@/lib/sequences/service';

const tags = ['Sequences'];

// POST /api/sequences — a new sequence of email steps; templates are checked here, never at send time
export const POST = defineRoute({
  summary: 'Create a sequence',
  description:
    'A named list of email steps, each sent `delay_minutes` after the previous one to every enrolled lead. Subject and body are ' +
    'templates; an unknown variable is refused with 400 naming the field. docs/PRODUCT.md "Outreach sequences".',
  tags,
  auth: policies.keyWrite,
  body: createSequenceBodySchema,
  response: SequenceSchema,
  status: 201,
  handler: ({ siteId, body }) => createSequence(siteId, body),
});

// GET /api/sequences — the site's sequences with their total figures, newest first
export const GET = defineRoute({
  summary: 'List sequences',
  tags,
  auth: policies.keyRead,
  query: siteQuerySchema,
  response: z.array(SequenceSchema),
  handler: ({ siteId }) => listSequences(siteId),
});
