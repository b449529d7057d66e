import { currentDate } from '@/lib/core/clock';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { ROBOT_TAGS as tags } from '@/lib/http/robot-policy';
import { acceptsEventStream, eventStreamResponse } from '@/lib/http/sse';
import { followAssistantRun } from '@/lib/robots/assistant';
import { AssistantStartedSchema, assistantBodySchema } from '@/lib/robots/schema';
import { startAssistant } from '@/lib/robots/service';

// POST /api/robots/instance/assistant — run a prompt on a robot as a promptRobot workflow
export const POST = defineRoute({
  summary: 'Run a prompt on a robot instance',
  description:
    'Starts a `promptRobot` workflow run on `instance_id` (or on a new uninstantiated instance of the site when none is given; it starts when the run begins). ' +
    'The run starts or resumes the browser when needed, lets the model plan browser actions (limited to `tools`) and performs them as robot act does. ' +
    'Needs a model: 503 MODEL_NOT_CONFIGURED otherwise, before anything is created. The answer is 202 with the run; the headers `X-Workflow-Id` and ' +
    '`X-Workflow-Run-Id` carry it too. With `Accept: text/event-stream` the answer is 200 with server-sent events instead: `accepted` (the run), ' +
    '`log` (each instance log entry as it is written), then `done` (the run record, COMPLETED or FAILED), or `timeout` after 10 minutes.',
  tags,
  auth: policies.key,
  body: assistantBodySchema,
  response: AssistantStartedSchema,
  status: 202,
  errors: ['NOT_FOUND', 'FORBIDDEN', 'MODEL_NOT_CONFIGURED', 'RATE_LIMITED', 'WORKFLOW_EXECUTION_ERROR'],
  handler: async ({ req, siteId, body, res }) => {
    const since = currentDate();
    const run = await startAssistant(siteId, body);
    res.headers.set('x-workflow-id', run.workflowId);
    res.headers.set('x-workflow-run-id', run.runId);
    const started = { async: true as const, workflowId: run.workflowId, runId: run.runId, instance_id: run.instanceId, status: 'RUNNING' as const };
    if (!acceptsEventStream(req)) return started;
    return eventStreamResponse(200, async (sink) => {
      sink.send('accepted', started);
      await followAssistantRun(siteId, { workflowId: run.workflowId, instanceId: run.instanceId, since }, sink);
    });
  },
});
