import { z } from 'zod';
import { ApiError } from '@/lib/core/errors';
import { paginationMeta } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { routeGroup } from '@/lib/http/route-group';
import { createSiteBodySchema, MemberSiteDetailSchema, MemberSiteSchema, SiteSchema, visitorSitesQuerySchema } from '@/lib/sites/schema';
import { createSiteOf, sitesForUser } from '@/lib/sites/service';
import { VisitorSchema } from '@/lib/visitors/schema';
import { listVisitors } from '@/lib/visitors/service';

const route = routeGroup({ tags: ['Sites'], auth: policies.owner });

// POST /api/visitors/sites — create a site owned by the signed-in user
export const POST = route({
  summary: 'Create a site',
  body: createSiteBodySchema,
  response: SiteSchema,
  status: 201,
  errors: ['PLAN_LIMIT_REACHED'],
  handler: ({ principal, body }) => createSiteOf(principal.user.id, body),
});

// GET /api/visitors/sites — the sites the user is a member of (with the role), one of them with ?id=, or the visitors of one with ?site_id=
export const GET = route({
  summary: "List the user's sites, get one, or list a site's visitors",
  description:
    'Without a query: every site the signed-in user is a member of, with their `role`. With `id`: that site, with its ' +
    'settings and the role (404 for a site the user is not a member of). With `site_id`: the ' +
    'visitors of that site, most recently seen first, paginated (`limit`, `offset`; `meta` {total, limit, offset, has_more}).',
  permission: 'site.read',
  query: visitorSitesQuerySchema,
  response: z.union([z.array(MemberSiteSchema), MemberSiteDetailSchema, z.array(VisitorSchema)]),
  errors: ['NOT_FOUND'],
  handler: async ({ principal, query, siteId, res }) => {
    if (query.id && query.site_id) throw new ApiError('INVALID_REQUEST', 'Send either id (a site) or site_id (its visitors), not both');
    if (!siteId) return sitesForUser(principal.user.id, query);
    // site_id was checked against the user's sites by the tenant step (403 otherwise).
    const { items, total } = await listVisitors(siteId, query.limit, query.offset);
    res.meta = paginationMeta(total, query.limit, query.offset);
    return items;
  },
});
