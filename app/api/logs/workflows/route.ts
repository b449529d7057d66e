import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { ListWorkflowsResponseSchema, listWorkflowsQuerySchema } from '@/lib/workflows/schema';
import { listWorkflowRuns } from '@/lib/workflows/service';

// GET /api/logs/workflows — the site's workflow runs, newest first, page by page
export const GET = defineRoute({
  summary: 'List workflow runs',
  description: 'Runs of the site only, newest first. Pages: pass `nextPageToken` back as `pageToken`; filters: status, type, from, to.',
  tags: ['Workflows'],
  auth: policies.keyRead,
  query: listWorkflowsQuerySchema,
  response: ListWorkflowsResponseSchema,
  envelope: 'bare',
  specErrors: { invalidSiteId: 'INVALID_SITE_ID', fields: { site_id: 'INVALID_SITE_ID', limit: 'INVALID_LIMIT' } },
  errors: ['INVALID_REQUEST', 'WORKFLOW_QUERY_ERROR'],
  handler: async ({ siteId, query }) => {
    const { site_id: _site, ...filters } = query;
    const page = await listWorkflowRuns(siteId, filters);
    const hasMore = page.nextPageToken !== undefined;
    return {
      workflows: page.records,
      pagination: { limit: query.limit, ...(hasMore ? { nextPageToken: page.nextPageToken } : {}), hasMore },
      meta: { site_id: siteId, total_found: page.totalFound, has_more: hasMore },
    };
  },
});
