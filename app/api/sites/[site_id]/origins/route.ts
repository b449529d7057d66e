import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { routeGroup } from '@/lib/http/route-group';
import { addSiteOriginBodySchema, SiteOriginSchema, sitePathSchema } from '@/lib/sites/schema';
import { addSiteOrigin, listSiteOrigins } from '@/lib/sites/service';

const route = routeGroup({ tags: ['Allowed origins'], auth: policies.owner, params: sitePathSchema });

// GET /api/sites/{site_id}/origins — extra browser origins allowed for the site's tracking routes
export const GET = route({
  summary: 'List allowed origins of a site',
  description:
    "Browser origins, besides the site's own domain (and its www. twin), whose keyless calls are accepted by the public visitor-tracking routes.",
  permission: 'site.read',
  response: z.array(SiteOriginSchema),
  handler: ({ siteId }) => listSiteOrigins(siteId!),
});

// POST /api/sites/{site_id}/origins — allow one more browser origin for the site
export const POST = route({
  summary: 'Allow an origin for a site',
  description: 'The origin must be scheme://host[:port] (http or https, no path). It is stored in lower case.',
  permission: 'settings.manage',
  body: addSiteOriginBodySchema,
  response: SiteOriginSchema,
  status: 201,
  errors: ['CONFLICT'],
  handler: ({ siteId, body }) => addSiteOrigin(siteId!, body.origin),
});
