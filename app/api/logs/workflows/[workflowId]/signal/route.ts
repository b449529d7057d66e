import { defineRoute } from '@/lib/http/define-route';
import { WorkflowRecordSchema, signalWorkflowBodySchema, workflowIdParams } from '@/lib/workflows/schema';
import { signalWorkflowRun } from '@/lib/workflows/service';

// POST /api/logs/workflows/{workflowId}/signal — deliver a signal to a running run (e.g. humanResponse)
export const POST = defineRoute({
  summary: 'Signal a workflow run',
  description: 'Delivers a named signal with a payload to a RUNNING run; humanIntervention waits for `humanResponse`.',
  tags: ['Workflows'],
  auth: { kind: 'apiKey', headers: ['bearer', 'x-api-key'], scope: 'write' },
  params: workflowIdParams,
  body: signalWorkflowBodySchema,
  response: WorkflowRecordSchema,
  status: 202,
  invalidSiteIdCode: 'INVALID_SITE_ID',
  fieldErrorCodes: { site_id: 'INVALID_SITE_ID' },
  errors: ['NOT_FOUND', 'CONFLICT', 'WORKFLOW_QUERY_ERROR'],
  handler: ({ siteId, params, body }) => signalWorkflowRun(siteId, params.workflowId, body.signal, body.payload),
});
