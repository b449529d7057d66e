import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { ROBOT_TAGS as tags } from '@/lib/http/robot-policy';
import { actOnInstance } from '@/lib/robots/act';
import { assertSiteUser } from '@/lib/robots/instances';
import { actBodySchema, ActResultSchema } from '@/lib/robots/schema';

// POST /api/robots/instance/act — update the robot's plan and perform its next steps in the browser
export const POST = defineRoute({
  summary: 'Act: update the plan and perform the next steps',
  description:
    'With `actions` (navigate, click, type, wait, extract, screenshot) the steps are appended to the plan and performed in order; no model is needed. ' +
    'Without, the model (503 MODEL_NOT_CONFIGURED when none) continues, modifies or regenerates the plan from `message`, `context`, the plan so far and the page. ' +
    '`step_status` sets the status of the current step first; a new `activity` starts a new plan. Each performed step is an instance log ' +
    '(`agent_action`) with a screenshot; performing stops at the first failed step. The instance must be running (409 otherwise).',
  tags,
  auth: policies.key,
  body: actBodySchema,
  response: ActResultSchema,
  errors: ['NOT_FOUND', 'CONFLICT', 'FORBIDDEN', 'MODEL_NOT_CONFIGURED', 'PROVIDER_NOT_CONFIGURED', 'PROVIDER_ERROR'],
  handler: async ({ siteId, body }) => {
    if (body.user_id) await assertSiteUser(siteId, body.user_id);
    return actOnInstance(siteId, body);
  },
});
