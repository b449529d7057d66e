import { z } from 'zod';
import { paginationMeta } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { VISITOR_RATE_LIMIT, VISITOR_TAGS as tags } from '@/lib/http/visitor-policy';
import { sessionListQuerySchema, SessionSummarySchema, visitorParamsSchema } from '@/lib/visitors/schema';
import { sessionMeta, sessionsOfVisitor } from '@/lib/visitors/service';

// GET /api/visitors/{visitor_id}/sessions — a visitor's sessions, newest first
export const GET = defineRoute({
  summary: "List a visitor's sessions",
  description:
    'Sessions of the visitor, newest first, optionally within [`from`, `to`] (start time, epoch ms). `meta` holds the ' +
    'pagination `{total, limit, offset, has_more}` and the session meta `{api_version, server_time, processing_time}`.',
  tags,
  auth: policies.visitorRead,
  rateLimit: VISITOR_RATE_LIMIT,
  params: visitorParamsSchema,
  query: sessionListQuerySchema,
  response: z.array(SessionSummarySchema),
  errors: ['NOT_FOUND'],
  handler: async ({ siteId, params, query, res, startedAt }) => {
    const { items, total } = await sessionsOfVisitor(siteId, params.visitor_id, query);
    res.meta = { ...paginationMeta(total, query.limit, query.offset), ...sessionMeta(startedAt) };
    return items;
  },
});
