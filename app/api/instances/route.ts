import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { INSTANCE_TAGS as tags } from '@/lib/http/robot-policy';
import { routeGroup, withPageMeta } from '@/lib/http/route-group';
import { createInstanceBodySchema, InstanceSchema, listInstancesQuerySchema } from '@/lib/robots/instance-schema';
import { createInstance, listInstances } from '@/lib/robots/instances';

const route = routeGroup({ tags, auth: policies.key });

// GET /api/instances — the site's instances, newest first, with filters
export const GET = route({
  summary: 'List instances',
  description:
    "The key's site's remote instances, newest first; `status` and `instance_type` filter, `limit` (default 50) and `offset` page. `meta` holds total, limit, offset and has_more.",
  query: listInstancesQuerySchema,
  response: z.array(InstanceSchema),
  handler: ({ siteId, query, res }) => withPageMeta(res, query, listInstances(siteId, query)),
});

// POST /api/instances — record a new instance (its browser starts through the robot routes)
export const POST = route({
  summary: 'Create an instance',
  description:
    'Records an instance in status `uninstantiated` (default) or `pending`; the robot routes (or PUT with `status: running`) start its browser. ' +
    '`user_id` must be a user who owns the site (403 otherwise). Environment variables are stored encrypted and shown by name only.',
  body: createInstanceBodySchema,
  response: InstanceSchema,
  status: 201,
  errors: ['FORBIDDEN'],
  handler: ({ siteId, body }) => createInstance(siteId, body),
});
