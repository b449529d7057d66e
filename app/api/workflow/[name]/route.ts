import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { workflowCatalog, workflowNamed, WORKFLOW_NAMES } from '@/lib/workflows/catalog';
import { StartWorkflowResponseSchema, workflowNameParams } from '@/lib/workflows/schema';
import { startParsedWorkflow, WORKFLOW_BODY_CODES } from '@/lib/workflows/service';

// POST /api/workflow/{name} — start a run of a catalog workflow; answers at once
export const POST = defineRoute({
  summary: 'Start a workflow run',
  fastPath: 'servers start workflows at their own rate',
  description:
    `Starts a run and answers at once (\`async: true\`); follow it in GET /api/logs/workflows. Names: ${WORKFLOW_NAMES.join(', ')} ` +
    '(bodies in docs/PRODUCT.md, "Workflows"). An `Idempotency-Key` header makes retries return the same run. Errors repeat ' +
    '`code` at the top level. A site may have a plan-dependent number of runs in progress (429 RATE_LIMITED beyond).',
  tags: ['Workflows'],
  auth: policies.keyWrite,
  params: workflowNameParams,
  // The body of the workflow named in the path, from its catalog entry (404 for a name it does not have).
  body: ({ name }) => workflowNamed(name).body,
  openapi: {
    variants: {
      param: 'name',
      values: Object.values(workflowCatalog).map((w) => ({
        value: w.name,
        summary: `Start ${w.name}`,
        description: `${w.purpose} (\`${w.type}\`, ${w.group}). Answers at once (\`async: true\`); follow the run in GET /api/logs/workflows. An \`Idempotency-Key\` header makes retries return the same run. Errors repeat \`code\` at the top level. A site may have a plan-dependent number of runs in progress (429 RATE_LIMITED beyond).`,
        body: w.body,
      })),
    },
  },
  response: StartWorkflowResponseSchema,
  envelope: 'bare',
  status: 202,
  specErrors: { invalidSiteId: 'INVALID_SITE_ID', fields: WORKFLOW_BODY_CODES, codeAtTopLevel: true },
  errors: ['INVALID_SITE_ID', 'INVALID_REQUEST', 'NOT_FOUND', 'RATE_LIMITED', 'WORKFLOW_EXECUTION_ERROR'],
  handler: async ({ siteId, params, body, req }) => {
    const run = await startParsedWorkflow(siteId, workflowNamed(params.name), body, req.headers.get('idempotency-key'));
    return { async: true as const, workflowId: run.workflowId, runId: run.runId, status: 'RUNNING' as const };
  },
});
