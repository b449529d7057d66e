import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { ROBOT_TAGS as tags } from '@/lib/http/robot-policy';
import { instanceIdBodySchema, InstanceResultSchema } from '@/lib/robots/schema';
import { pauseRobot } from '@/lib/robots/service';

// POST /api/robots/instance/pause — save the browser's state and close it
export const POST = defineRoute({
  summary: 'Pause a robot instance',
  description:
    'Saves cookies, storage and the current URL (file storage) and closes the browser: status `paused`. Only a running instance can pause (409 otherwise).',
  tags,
  auth: policies.key,
  body: instanceIdBodySchema,
  response: InstanceResultSchema,
  errors: ['NOT_FOUND', 'CONFLICT', 'PROVIDER_ERROR'],
  handler: ({ siteId, body }) => pauseRobot(siteId, body.instance_id),
});
