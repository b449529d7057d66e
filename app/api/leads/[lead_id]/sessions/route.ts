import { z } from 'zod';
import { paginationMeta } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { VISITOR_RATE_LIMIT, VISITOR_TAGS as tags } from '@/lib/http/visitor-policy';
import { leadParamsSchema, sessionListQuerySchema, SessionSummarySchema } from '@/lib/visitors/schema';
import { sessionMeta, sessionsOfLead } from '@/lib/visitors/service';

// GET /api/leads/{lead_id}/sessions — the sessions bound to a lead, newest first
export const GET = defineRoute({
  summary: "List a lead's sessions",
  description:
    'Sessions bound to the lead (by identify), newest first, optionally within [`from`, `to`] (start time, epoch ms). ' +
    "The lead must belong to the key's site (404 NOT_FOUND otherwise).",
  tags,
  auth: policies.visitorRead,
  rateLimit: VISITOR_RATE_LIMIT,
  params: leadParamsSchema,
  query: sessionListQuerySchema,
  response: z.array(SessionSummarySchema),
  errors: ['NOT_FOUND'],
  handler: async ({ siteId, params, query, res, startedAt }) => {
    const { items, total } = await sessionsOfLead(siteId, params.lead_id, query);
    res.meta = { ...paginationMeta(total, query.limit, query.offset), ...sessionMeta(startedAt) };
    return items;
  },
});
