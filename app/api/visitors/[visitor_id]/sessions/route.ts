import { z } from 'zod';
import { withPageMeta } from '@/lib/http/route-group';
import { visitorReadRoute, withSessionMeta } from '@/lib/http/visitor-policy';
import { sessionListQuerySchema, SessionSummarySchema, visitorParamsSchema } from '@/lib/visitors/schema';
import { sessionsOfVisitor } from '@/lib/visitors/service';

// GET /api/visitors/{visitor_id}/sessions — a visitor's sessions, newest first
export const GET = visitorReadRoute({
  summary: "List a visitor's sessions",
  description:
    'Sessions of the visitor, newest first, optionally within [`from`, `to`] (start time, epoch ms). `meta` holds the ' +
    'pagination `{total, limit, offset, has_more}` and the session meta `{api_version, server_time, processing_time}`.',
  params: visitorParamsSchema,
  query: sessionListQuerySchema,
  response: z.array(SessionSummarySchema),
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params, query, res, startedAt }) =>
    withSessionMeta(res, startedAt, withPageMeta(res, query, sessionsOfVisitor(siteId, params.visitor_id, query))),
});
