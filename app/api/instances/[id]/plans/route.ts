import { z } from 'zod';
import { paginationMeta } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { INSTANCE_TAGS as tags } from '@/lib/http/robot-policy';
import { createPlanBodySchema, InstancePlanSchema, instanceParamsSchema, listPlansQuerySchema } from '@/lib/instances/schema';
import { addPlan, instancePlans } from '@/lib/instances/service';

// GET /api/instances/{id}/plans — the instance's plans, highest priority and newest first
export const GET = defineRoute({
  summary: 'List the plans of an instance',
  description: 'Highest `priority` first, then newest; filter by `status` and `plan_type`; `limit` (default 50) and `offset` page.',
  tags,
  auth: policies.key,
  params: instanceParamsSchema,
  query: listPlansQuerySchema,
  response: z.array(InstancePlanSchema),
  errors: ['NOT_FOUND'],
  handler: async ({ siteId, params, query, res }) => {
    const { items, total } = await instancePlans(siteId, params.id, query);
    res.meta = paginationMeta(total, query.limit, query.offset);
    return items;
  },
});

// POST /api/instances/{id}/plans — add a plan to the instance
export const POST = defineRoute({
  summary: 'Add a plan to an instance',
  tags,
  auth: policies.key,
  params: instanceParamsSchema,
  body: createPlanBodySchema,
  response: InstancePlanSchema,
  status: 201,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params, body }) => addPlan(siteId, params.id, body),
});
