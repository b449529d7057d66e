import { z } from 'zod';
import { siteIdSchema } from '@/lib/core/schemas';
import { defineRoute } from '@/lib/http/define-route';

/** A test-only route declared like the public visitor-tracking routes: X-SA-API-KEY or a registered browser Origin. */
export const visitorTestRoute = defineRoute({
  summary: 'test: visitor route',
  tags: ['test'],
  auth: { kind: 'apiKey', headers: ['x-sa-api-key'], browserOrigin: true },
  rateLimit: 'visitor',
  body: z.strictObject({ site_id: siteIdSchema }),
  response: z.object({ ok: z.boolean() }),
  handler: () => ({ ok: true }),
});
