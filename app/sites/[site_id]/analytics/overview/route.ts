import { z } from 'zod';
import { OverviewSchema, rangeQuerySchema, PERIOD_DESCRIPTION } from '@/lib/analytics/schema';
import { overview } from '@/lib/analytics/service';
import { siteIdSchema } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';

// GET /sites/{site_id}/analytics/overview — totals of a period and one entry per day
export const GET = defineRoute({
  summary: 'Analytics overview',
  description:
    'Visitors, sessions, page views, bounce rate, mean session duration, conversions and new leads over the period, and the ' +
    'same per day (every day of the period, oldest first). ' +
    PERIOD_DESCRIPTION,
  tags: ['Analytics'],
  auth: policies.siteKey,
  params: z.object({ site_id: siteIdSchema }),
  query: rangeQuerySchema,
  response: OverviewSchema,
  handler: ({ siteId, query }) => overview(siteId, query),
});
