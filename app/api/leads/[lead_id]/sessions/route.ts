import { z } from 'zod';
import { withPageMeta } from '@/lib/http/route-group';
import { visitorReadRoute, withSessionMeta } from '@/lib/http/visitor-policy';
import { leadParamsSchema, sessionListQuerySchema, SessionSummarySchema } from '@/lib/visitors/schema';
import { sessionsOfLead } from '@/lib/visitors/service';

// GET /api/leads/{lead_id}/sessions — the sessions bound to a lead, newest first
export const GET = visitorReadRoute({
  summary: "List a lead's sessions",
  description:
    'Sessions bound to the lead (by identify), newest first, optionally within [`from`, `to`] (start time, epoch ms). ' +
    "The lead must belong to the key's site (404 NOT_FOUND otherwise).",
  params: leadParamsSchema,
  query: sessionListQuerySchema,
  response: z.array(SessionSummarySchema),
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params, query, res, startedAt }) =>
    withSessionMeta(res, startedAt, withPageMeta(res, query, sessionsOfLead(siteId, params.lead_id, query))),
});
