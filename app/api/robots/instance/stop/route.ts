import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { ROBOT_TAGS as tags } from '@/lib/http/robot-policy';
import { instanceIdBodySchema, InstanceResultSchema } from '@/lib/robots/schema';
import { stopRobot } from '@/lib/robots/service';

// POST /api/robots/instance/stop — close the browser for good
export const POST = defineRoute({
  summary: 'Stop a robot instance',
  description:
    'Closes the browser and drops any saved state: status `stopped` (a later resume starts a fresh browser). 409 when it is stopped already or an operation is under way.',
  tags,
  auth: policies.key,
  body: instanceIdBodySchema,
  response: InstanceResultSchema,
  errors: ['NOT_FOUND', 'CONFLICT'],
  handler: ({ siteId, body }) => stopRobot(siteId, body.instance_id),
});
