import { breakdownParamsSchema, breakdownQuerySchema, BreakdownSchema, PERIOD_DESCRIPTION } from '@/lib/analytics/schema';
import { breakdown } from '@/lib/analytics/service';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';

// GET /sites/{site_id}/analytics/breakdown/{dimension} — top pages, entry pages, referrers, UTM values, countries or devices
export const GET = defineRoute({
  summary: 'Analytics breakdown',
  description:
    'The top values of one dimension over the period. `pages`: page views by path (query and fragment left out) and the ' +
    'sessions that viewed each. The session dimensions (`entry_pages`, `referrers`, `utm_sources`, `utm_mediums`, ' +
    '`utm_campaigns`, `countries`, `devices`): sessions started in the period by the value of their start, with their page ' +
    'views, bounce rate, mean duration and conversion events — a conversion counts for the source of its visit. ' +
    '`value` null stands for none: direct traffic (no referrer, or the site itself), no campaign, unknown country. ' +
    PERIOD_DESCRIPTION,
  tags: ['Analytics'],
  auth: policies.siteKey,
  params: breakdownParamsSchema,
  query: breakdownQuerySchema,
  response: BreakdownSchema,
  handler: ({ siteId, params, query }) => breakdown(siteId, params.dimension, query),
});
