import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { ROBOT_TAGS as tags } from '@/lib/http/robot-policy';
import { RobotInstanceResultSchema, robotInstanceBodySchema } from '@/lib/robots/schema';
import { createOrResumeRobot } from '@/lib/robots/service';

// POST /api/robots/instance — create a robot instance (or resume `instance_id`) and plan the activity
export const POST = defineRoute({
  summary: 'Create or resume a robot instance',
  description:
    'Without `instance_id`: a new browser instance (owned by the site owner) is created and its browser started (201). With `instance_id`: that instance ' +
    'is resumed unless it is running (200). Either way a `task` plan is recorded for `activity`; robot act fills and performs its steps. ' +
    '`timeout_hours` (0.1–24, default 1): the browser stops by itself after it. 429 beyond the running-browser caps (per site and overall); ' +
    '503 PROVIDER_NOT_CONFIGURED without a robot browser.',
  tags,
  auth: policies.key,
  body: robotInstanceBodySchema,
  response: RobotInstanceResultSchema,
  status: 201,
  openapi: { alsoSucceeds: { 200: 'An existing instance was resumed or was already running' } },
  errors: ['NOT_FOUND', 'CONFLICT', 'PROVIDER_NOT_CONFIGURED', 'PROVIDER_ERROR'],
  handler: async ({ siteId, body, res }) => {
    const result = await createOrResumeRobot(siteId, body);
    if (!result.created) res.status = 200;
    return result;
  },
});
