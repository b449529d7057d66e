import { z } from 'zod';
import { defineRoute } from '@/lib/http/define-route';
import { createSite } from '@/lib/sites/repo';
import { createSiteBodySchema, SiteDetailSchema, SiteSchema, visitorSitesQuerySchema } from '@/lib/sites/schema';
import { sitesForUser } from '@/lib/sites/service';

const tags = ['Sites'];
const auth = { kind: 'session' } as const;

// POST /api/visitors/sites — create a site owned by the signed-in user
export const POST = defineRoute({
  summary: 'Create a site',
  tags,
  auth,
  body: createSiteBodySchema,
  response: SiteSchema,
  status: 201,
  handler: ({ principal, body }) => createSite(principal.user.id, body),
});

// GET /api/visitors/sites — the user's sites, or one of them with ?id= (or ?site_id=)
export const GET = defineRoute({
  summary: "List the user's sites, or get one",
  description: 'Without a query: every site of the signed-in user. With `id` (or `site_id`): that site, with its settings.',
  tags,
  auth,
  query: visitorSitesQuerySchema,
  response: z.union([z.array(SiteSchema), SiteDetailSchema]),
  errors: ['NOT_FOUND'],
  handler: ({ principal, query }) => sitesForUser(principal.user.id, query),
});
