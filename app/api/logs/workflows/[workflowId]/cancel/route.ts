import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { WorkflowRecordSchema, cancelWorkflowBodySchema, workflowIdParams } from '@/lib/workflows/schema';
import { cancelWorkflowRun } from '@/lib/workflows/service';

// POST /api/logs/workflows/{workflowId}/cancel — cancel a running run (→ CANCELLED)
export const POST = defineRoute({
  summary: 'Cancel a workflow run',
  description: 'Ends a RUNNING run as CANCELLED; a run that already ended answers 409.',
  tags: ['Workflows'],
  auth: policies.keyWrite,
  params: workflowIdParams,
  body: cancelWorkflowBodySchema,
  response: WorkflowRecordSchema,
  specErrors: { invalidSiteId: 'INVALID_SITE_ID', fields: { site_id: 'INVALID_SITE_ID' } },
  errors: ['NOT_FOUND', 'CONFLICT', 'WORKFLOW_QUERY_ERROR'],
  handler: ({ siteId, params }) => cancelWorkflowRun(siteId, params.workflowId),
});
