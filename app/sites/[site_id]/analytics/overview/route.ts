import { overviewCsv } from '@/lib/analytics/csv';
import { FILTER_DESCRIPTION, OverviewSchema, overviewQuerySchema, PERIOD_DESCRIPTION } from '@/lib/analytics/schema';
import { overview } from '@/lib/analytics/service';
import { csvResponse } from '@/lib/core/csv';
import { queryList } from '@/lib/http/query-list';
import { analyticsRoute } from '@/lib/http/site-routes';

// GET /sites/{site_id}/analytics/overview — totals of a period and one entry per day
export const GET = analyticsRoute({
  summary: 'Analytics overview',
  description:
    'Visitors, sessions, page views, bounce rate, mean session duration, conversions, new leads and revenue over the period, ' +
    'and the same per day (every day of the period, oldest first). `compare=previous` or `compare=year` adds the same ' +
    'figures over the comparison period and the change of each. `format=csv` answers the series as a CSV download. ' +
    PERIOD_DESCRIPTION +
    ' ' +
    FILTER_DESCRIPTION,
  query: overviewQuerySchema,
  response: OverviewSchema,
  openapi: {
    successMedia: {
      types: {
        'text/csv': {
          description: 'With `format=csv`: the series, one record per day (RFC 4180)',
          example:
            'date,visitors,sessions,page_views,bounce_rate,avg_duration_ms,conversions,new_leads,revenue_EUR\r\n2026-11-10,42,51,130,0.4118,61000,3,1,147\r\n',
        },
      },
    },
  },
  handler: async ({ siteId, query, req }) => {
    const answer = await overview(siteId, { ...query, filter: queryList(req, 'filter') });
    if (query.format !== 'csv') return answer;
    const { csv, fileName } = overviewCsv(answer);
    return csvResponse(csv, fileName);
  },
});
