import { breakdownCsv } from '@/lib/analytics/csv';
import { breakdownParamsSchema, breakdownQuerySchema, BreakdownSchema, FILTER_DESCRIPTION, PERIOD_DESCRIPTION } from '@/lib/analytics/schema';
import { breakdown } from '@/lib/analytics/service';
import { csvResponse } from '@/lib/core/csv';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { queryList } from '@/lib/http/query-list';

// GET /sites/{site_id}/analytics/breakdown/{dimension} — top pages, entry pages, referrers, UTM values, countries, devices, goals…
export const GET = defineRoute({
  summary: 'Analytics breakdown',
  description:
    'The top values of one dimension over the period. `pages`: page views by path (query and fragment left out) and the ' +
    'sessions that viewed each. The session dimensions (`entry_pages`, `referrers`, `utm_sources`, `utm_mediums`, ' +
    '`utm_campaigns`, `utm_terms`, `utm_contents`, `countries`, `devices`, …): sessions started in the period by the value of ' +
    'their start, with their page views, bounce rate, mean duration, conversion events and revenue — a conversion counts for ' +
    'the source of its visit. `goals`: each goal of the site with the sessions and visitors that reached it, its events, ' +
    'conversion rate and revenue. `value` null stands for none: direct traffic (no referrer, or the site itself), no ' +
    'campaign, unknown country. `format=csv` answers the items as a CSV download. ' +
    PERIOD_DESCRIPTION +
    ' ' +
    FILTER_DESCRIPTION,
  tags: ['Analytics'],
  auth: policies.siteKey,
  params: breakdownParamsSchema,
  query: breakdownQuerySchema,
  response: BreakdownSchema,
  openapi: {
    successMedia: {
      types: {
        'text/csv': {
          description: 'With `format=csv`: the items, one record per value (RFC 4180)',
          example:
            'value,visitors,sessions,page_views,bounce_rate,avg_duration_ms,conversions,conversion_rate,clicks,avg_engaged_ms,avg_scroll_depth\r\n/pricing,,31,40,0.3548,52000,2,0.0645,,,\r\n',
        },
      },
    },
  },
  handler: async ({ siteId, params, query, req }) => {
    const answer = await breakdown(siteId, params.dimension, { ...query, filter: queryList(req, 'filter') });
    if (query.format !== 'csv') return answer;
    const { csv, fileName } = breakdownCsv(answer);
    return csvResponse(csv, fileName);
  },
});
