import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { ROBOT_TAGS as tags } from '@/lib/http/robot-policy';
import { resumeBodySchema, InstanceResultSchema } from '@/lib/robots/schema';
import { resumeRobot } from '@/lib/robots/service';

// POST /api/robots/instance/resume — restore a paused instance, or start a fresh browser
export const POST = defineRoute({
  summary: 'Resume a robot instance',
  description:
    'A paused instance gets its cookies, storage and URL back; a stopped, new or failed one gets a fresh browser: status `running` for `timeout_hours` (0.1–24, default 1), then it stops by itself. 409 when it runs already; 429 beyond the running-browser caps.',
  tags,
  auth: policies.key,
  body: resumeBodySchema,
  response: InstanceResultSchema,
  errors: ['NOT_FOUND', 'CONFLICT', 'PROVIDER_NOT_CONFIGURED', 'PROVIDER_ERROR'],
  handler: ({ siteId, body }) => resumeRobot(siteId, body.instance_id, body.timeout_hours),
});
