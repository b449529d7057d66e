import { FILTER_DESCRIPTION, funnelQuerySchema, FunnelSchema, PERIOD_DESCRIPTION } from '@/lib/analytics/schema';
import { funnel } from '@/lib/analytics/service';
import { queryList } from '@/lib/http/query-list';
import { analyticsRoute } from '@/lib/http/site-routes';

// GET /sites/{site_id}/analytics/funnel — sessions that went through named events in order
export const GET = analyticsRoute({
  summary: 'Analytics funnel',
  description:
    'For each step (an `event_name` of tracked events, e.g. `sgp.track("add_to_cart")` or a conversion named `purchase`): ' +
    'the sessions that reached it after all the previous steps, in the order of the events, within one session and the ' +
    'period; its share of the first step and the drop-off from the previous one. ' +
    PERIOD_DESCRIPTION +
    ' ' +
    FILTER_DESCRIPTION,
  query: funnelQuerySchema,
  response: FunnelSchema,
  handler: ({ siteId, query, req }) => funnel(siteId, { ...query, filter: queryList(req, 'filter') }),
});
