import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { INSTANCE_TAGS as tags } from '@/lib/http/robot-policy';
import { routeGroup, withPageMeta } from '@/lib/http/route-group';
import { createPlanBodySchema, InstancePlanSchema, instanceParamsSchema, listPlansQuerySchema } from '@/lib/robots/instance-schema';
import { addPlan, instancePlans } from '@/lib/robots/instances';

const route = routeGroup({ tags, auth: policies.key, params: instanceParamsSchema });

// GET /api/instances/{id}/plans — the instance's plans, highest priority and newest first
export const GET = route({
  summary: 'List the plans of an instance',
  description: 'Highest `priority` first, then newest; filter by `status` and `plan_type`; `limit` (default 50) and `offset` page.',
  query: listPlansQuerySchema,
  response: z.array(InstancePlanSchema),
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params, query, res }) => withPageMeta(res, query, instancePlans(siteId, params.id, query)),
});

// POST /api/instances/{id}/plans — add a plan to the instance
export const POST = route({
  summary: 'Add a plan to an instance',
  body: createPlanBodySchema,
  response: InstancePlanSchema,
  status: 201,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params, body }) => addPlan(siteId, params.id, body),
});
