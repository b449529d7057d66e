import { z } from 'zod';
import { platformKey } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { withMeta } from '@/lib/http/route-group';
import { LeadSchema } from '@/lib/leads/schema';
import { createPlatformLeadsBodySchema, LeadBatchResultSchema, platformLeadsQuerySchema } from '@/lib/platform/schema';
import { createLeadsForApp, leadsForApp } from '@/lib/platform/service';

const tags = ['Platform API'];

// GET /api/platform/leads — the site's leads, newest first, page by page
export const GET = defineRoute({
  summary: 'List leads (platform)',
  description:
    "The leads of the key's site, newest first; `search` matches name, email and company; `meta` carries " +
    '`{total, limit, offset, has_more, total_capped}`: `total` counts up to one past the page, exact unless `total_capped`. Each call takes one unit of the daily `leads.read` quota (429 when it is spent).',
  tags,
  auth: platformKey(['leads.read']),
  query: platformLeadsQuerySchema,
  response: z.array(LeadSchema),
  errors: ['RATE_LIMITED'],
  handler: ({ principal, query, res }) => withMeta(res, leadsForApp(principal, query)),
});

// POST /api/platform/leads — create a batch of leads, with a result per item
export const POST = defineRoute({
  summary: 'Create leads (platform)',
  description:
    'Creates each lead on its own and answers one result per item, in order: `{index, success, lead}` or ' +
    '`{index, success: false, error: {code, message}}` (CONFLICT for an email that is already a lead of the site, ' +
    'NOT_FOUND for an unknown `segment_id`). A body that is invalid as a whole (no items, more than 100, an item without ' +
    'name or email) is 400 and creates nothing. The batch takes its size from the daily `leads.write` quota, all or ' +
    'nothing (429 when it does not fit); refused items give their units back.',
  tags,
  auth: platformKey(['leads.write']),
  body: createPlatformLeadsBodySchema,
  response: LeadBatchResultSchema,
  errors: ['RATE_LIMITED'],
  handler: ({ principal, body }) => createLeadsForApp(principal, body.leads),
});
