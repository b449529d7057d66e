import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { ROBOT_TAGS as tags } from '@/lib/http/robot-policy';
import { deleteInstance } from '@/lib/robots/lifecycle';
import { DeletedInstanceSchema, instanceIdBodySchema } from '@/lib/robots/schema';

// POST /api/robots/instance/delete — stop the browser and delete the instance
export const POST = defineRoute({
  summary: 'Delete a robot instance',
  description:
    'Closes its browser if it runs and deletes the record with its logs, plans, screenshots and saved state (as DELETE /api/instances/{id}).',
  tags,
  auth: policies.key,
  body: instanceIdBodySchema,
  response: DeletedInstanceSchema,
  errors: ['NOT_FOUND', 'CONFLICT'],
  handler: ({ siteId, body }) => deleteInstance(siteId, body.instance_id).then(() => ({ id: body.instance_id, deleted: true as const })),
});
