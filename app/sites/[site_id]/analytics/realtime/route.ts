import { FILTER_DESCRIPTION, realtimeQuerySchema, RealtimeSchema } from '@/lib/analytics/schema';
import { realtime } from '@/lib/analytics/service';
import { queryList } from '@/lib/http/query-list';
import { analyticsRoute } from '@/lib/http/site-routes';

// GET /sites/{site_id}/analytics/realtime — who is on the site now
export const GET = analyticsRoute({
  summary: 'Analytics realtime',
  description:
    'Visitors (people, bots left out) with activity in the last 5 minutes, their current pages, sources and countries (top 10 ' +
    'each), and page views per minute over the last 30 minutes. Cheap enough to ask every few seconds. ' +
    FILTER_DESCRIPTION,
  query: realtimeQuerySchema,
  response: RealtimeSchema,
  handler: ({ siteId, req }) => realtime(siteId, { filter: queryList(req, 'filter') }),
});
