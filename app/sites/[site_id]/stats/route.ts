import { z } from 'zod';
import { currentDate } from '@/lib/core/clock';
import { siteIdSchema } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { SiteStatsSchema } from '@/lib/sites/schema';
import { siteStats } from '@/lib/sites/service';

// GET /sites/{site_id}/stats — live counts for the site
export const GET = defineRoute({
  summary: 'Site statistics',
  description: 'Counts computed from the stored data at request time.',
  tags: ['Sites'],
  auth: policies.siteKey,
  params: z.object({ site_id: siteIdSchema }),
  response: SiteStatsSchema,
  handler: ({ siteId }) => siteStats(siteId, currentDate()),
});
