import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { WorkflowRecordSchema, siteQuerySchema, workflowIdParams } from '@/lib/workflows/schema';
import { getWorkflowRun } from '@/lib/workflows/service';

// GET /api/logs/workflows/{workflowId} — one run of the site (input, result, failure)
export const GET = defineRoute({
  summary: 'Get a workflow run',
  tags: ['Workflows'],
  auth: policies.keyRead,
  params: workflowIdParams,
  query: siteQuerySchema,
  response: WorkflowRecordSchema,
  specErrors: { invalidSiteId: 'INVALID_SITE_ID', fields: { site_id: 'INVALID_SITE_ID' } },
  errors: ['NOT_FOUND', 'WORKFLOW_QUERY_ERROR'],
  handler: ({ siteId, params }) => getWorkflowRun(siteId, params.workflowId),
});
