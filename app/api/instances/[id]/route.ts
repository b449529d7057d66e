import { z } from 'zod';
import { siteIdSchema } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { INSTANCE_TAGS as tags } from '@/lib/http/robot-policy';
import { InstanceSchema, instanceParamsSchema, updateInstanceBodySchema } from '@/lib/instances/schema';
import { getInstance, removeInstance, updateInstance } from '@/lib/instances/service';
import { DeletedInstanceSchema } from '@/lib/robots/schema';

const siteQuery = z.strictObject({ site_id: siteIdSchema.optional() });

// GET /api/instances/{id} — one instance of the site
export const GET = defineRoute({
  summary: 'Get an instance',
  tags,
  auth: policies.key,
  params: instanceParamsSchema,
  query: siteQuery,
  response: InstanceSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params }) => getInstance(siteId, params.id),
});

// PUT /api/instances/{id} — change fields; a status change runs its robot operation
export const PUT = defineRoute({
  summary: 'Update an instance',
  description:
    'Changes the given fields. `status: running` starts or resumes the browser, `paused` pauses it (state saved), `stopped` stops it; ' +
    'any other status change, or one the current status does not allow, is 409 CONFLICT (state machine in docs/PRODUCT.md, "Instances and robots").',
  tags,
  auth: policies.key,
  params: instanceParamsSchema,
  body: updateInstanceBodySchema,
  response: InstanceSchema,
  errors: ['NOT_FOUND', 'CONFLICT', 'PROVIDER_NOT_CONFIGURED', 'PROVIDER_ERROR'],
  handler: ({ siteId, params, body }) => updateInstance(siteId, params.id, body),
});

// DELETE /api/instances/{id} — close the browser and delete the record with its logs and plans
export const DELETE = defineRoute({
  summary: 'Delete an instance',
  description:
    'Closes its browser if it runs, then deletes the record, its logs, plans, screenshots and saved state. 409 while it is starting or stopping.',
  tags,
  auth: policies.key,
  params: instanceParamsSchema,
  query: siteQuery,
  response: DeletedInstanceSchema,
  errors: ['NOT_FOUND', 'CONFLICT'],
  handler: async ({ siteId, params }) => {
    await removeInstance(siteId, params.id);
    return { id: params.id, deleted: true as const };
  },
});
