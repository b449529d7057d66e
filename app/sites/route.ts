import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { SiteSchema } from '@/lib/sites/schema';
import { siteDetail } from '@/lib/sites/service';

// GET /sites — the sites this API key may see (exactly its own site)
export const GET = defineRoute({
  summary: 'List sites',
  description: 'An API key belongs to one site, so the list holds that site only.',
  tags: ['Sites'],
  auth: policies.siteKey,
  response: z.array(SiteSchema),
  handler: async ({ siteId }) => [await siteDetail(siteId)],
});
