import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { WorkflowRecordSchema, signalWorkflowBodySchema, workflowIdParams } from '@/lib/workflows/schema';
import { signalWorkflowRun } from '@/lib/workflows/service';

// POST /api/logs/workflows/{workflowId}/signal — deliver a signal to a running run (e.g. humanResponse)
export const POST = defineRoute({
  summary: 'Signal a workflow run',
  description: 'Delivers a named signal with a payload to a RUNNING run; humanIntervention waits for `humanResponse`.',
  tags: ['Workflows'],
  auth: policies.keyWrite,
  params: workflowIdParams,
  body: signalWorkflowBodySchema,
  response: WorkflowRecordSchema,
  status: 202,
  specErrors: { invalidSiteId: 'INVALID_SITE_ID', fields: { site_id: 'INVALID_SITE_ID' } },
  errors: ['NOT_FOUND', 'CONFLICT', 'WORKFLOW_QUERY_ERROR'],
  handler: ({ siteId, params, body }) => signalWorkflowRun(siteId, params.workflowId, body.signal, body.payload),
});
