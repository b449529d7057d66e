import { z } from 'zod';
import { siteIdSchema } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { SiteDetailSchema } from '@/lib/sites/schema';
import { siteDetail } from '@/lib/sites/service';

// GET /sites/{site_id} — the key's site with its settings
export const GET = defineRoute({
  summary: 'Get a site',
  tags: ['Sites'],
  auth: policies.siteKey,
  params: z.object({ site_id: siteIdSchema }),
  response: SiteDetailSchema,
  handler: ({ siteId }) => siteDetail(siteId),
});
