import { z } from 'zod';
import { paginationMeta } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { INSTANCE_TAGS as tags } from '@/lib/http/robot-policy';
import { createInstanceBodySchema, InstanceSchema, listInstancesQuerySchema } from '@/lib/instances/schema';
import { createInstance, listInstances } from '@/lib/instances/service';

// GET /api/instances — the site's instances, newest first, with filters
export const GET = defineRoute({
  summary: 'List instances',
  description:
    "The key's site's remote instances, newest first; `status` and `instance_type` filter, `limit` (default 50) and `offset` page. `meta` holds total, limit, offset and has_more.",
  tags,
  auth: policies.key,
  query: listInstancesQuerySchema,
  response: z.array(InstanceSchema),
  handler: async ({ siteId, query, res }) => {
    const { items, total } = await listInstances(siteId, query);
    res.meta = paginationMeta(total, query.limit, query.offset);
    return items;
  },
});

// POST /api/instances — record a new instance (its browser starts through the robot routes)
export const POST = defineRoute({
  summary: 'Create an instance',
  description:
    'Records an instance in status `uninstantiated` (default) or `pending`; the robot routes (or PUT with `status: running`) start its browser. ' +
    '`user_id` must be a user who owns the site (403 otherwise). Environment variables are stored encrypted and shown by name only.',
  tags,
  auth: policies.key,
  body: createInstanceBodySchema,
  response: InstanceSchema,
  status: 201,
  errors: ['FORBIDDEN'],
  handler: ({ siteId, body }) => createInstance(siteId, body),
});
