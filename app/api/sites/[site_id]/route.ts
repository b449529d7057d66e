import { policies } from '@/lib/http/auth/policies';
import { routeGroup } from '@/lib/http/route-group';
import { deleteSite } from '@/lib/sites/deletion';
import { deleteSiteBodySchema, DeletedSiteSchema, SiteSchema, sitePathSchema, updateSiteBodySchema } from '@/lib/sites/schema';
import { updateSiteOf } from '@/lib/sites/service';
import { terminateSiteRuns } from '@/lib/workflows/service';

const route = routeGroup({ tags: ['Sites'], auth: policies.owner, params: sitePathSchema });

// PATCH /api/sites/{site_id} — rename a site or change its domain (the owner only)
export const PATCH = route({
  summary: 'Update a site',
  description:
    'Changes `name` and/or `domain` (`domain: null` removes it). The domain decides which browser origins the public ' +
    'tracking routes accept, so the change applies from the next request. Keys, data and extra origins are unchanged.',
  permission: 'settings.manage',
  body: updateSiteBodySchema,
  response: SiteSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, body }) => updateSiteOf(siteId!, body),
});

// DELETE /api/sites/{site_id} — delete a site and everything it holds, after a typed confirmation
export const DELETE = route({
  summary: 'Delete a site',
  description:
    "Needs `confirm`: the site's name exactly as stored (400 otherwise, nothing deleted). Running workflow runs are " +
    'terminated, then the site and all its data go in one transaction: API keys (refused with 401 from the next ' +
    'request), key usage, commands (a running one stops), visitors, visitor sessions and events, leads, segments, ' +
    'requirements, allowed origins, settings, conversations and workflow runs; then its uploaded files are removed ' +
    'from storage. The answer counts what went. There is no undo.',
  permission: 'site.delete',
  body: deleteSiteBodySchema,
  response: DeletedSiteSchema,
  errors: ['NOT_FOUND', 'WORKFLOW_QUERY_ERROR'],
  handler: ({ siteId, body }) => deleteSite(siteId!, body.confirm, terminateSiteRuns),
});
