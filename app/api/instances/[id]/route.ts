import { z } from 'zod';
import { siteIdSchema } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { INSTANCE_TAGS as tags } from '@/lib/http/robot-policy';
import { routeGroup } from '@/lib/http/route-group';
import { InstanceSchema, instanceParamsSchema, updateInstanceBodySchema } from '@/lib/robots/instance-schema';
import { getInstance, removeInstance, updateInstance } from '@/lib/robots/instances';
import { DeletedInstanceSchema } from '@/lib/robots/schema';

const route = routeGroup({ tags, auth: policies.key, params: instanceParamsSchema });

const siteQuery = z.strictObject({ site_id: siteIdSchema.optional() });

// GET /api/instances/{id} — one instance of the site
export const GET = route({
  summary: 'Get an instance',
  query: siteQuery,
  response: InstanceSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params }) => getInstance(siteId, params.id),
});

// PUT /api/instances/{id} — change fields; a status change runs its robot operation
export const PUT = route({
  summary: 'Update an instance',
  description:
    'Changes the given fields. `status: running` starts or resumes the browser, `paused` pauses it (state saved), `stopped` stops it; ' +
    'any other status change, or one the current status does not allow, is 409 CONFLICT (state machine in docs/PRODUCT.md, "Instances and robots").',
  body: updateInstanceBodySchema,
  response: InstanceSchema,
  errors: ['NOT_FOUND', 'CONFLICT', 'PROVIDER_NOT_CONFIGURED', 'PROVIDER_ERROR'],
  handler: ({ siteId, params, body }) => updateInstance(siteId, params.id, body),
});

// DELETE /api/instances/{id} — close the browser and delete the record with its logs and plans
export const DELETE = route({
  summary: 'Delete an instance',
  description:
    'Closes its browser if it runs, then deletes the record, its logs, plans, screenshots and saved state. 409 while it is starting or stopping.',
  query: siteQuery,
  response: DeletedInstanceSchema,
  errors: ['NOT_FOUND', 'CONFLICT'],
  handler: ({ siteId, params }) => removeInstance(siteId, params.id).then(() => ({ id: params.id, deleted: true as const })),
});
