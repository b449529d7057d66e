import { z } from 'zod';
import { paginationMeta } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { INSTANCE_TAGS as tags } from '@/lib/http/robot-policy';
import { createLogBodySchema, InstanceLogSchema, instanceParamsSchema, listLogsQuerySchema } from '@/lib/instances/schema';
import { addLog, instanceLogs } from '@/lib/instances/service';

// GET /api/instances/{id}/logs — the instance's log, newest first
export const GET = defineRoute({
  summary: 'List the logs of an instance',
  description: 'Newest first; filter by `log_type` and `level`; `limit` (default 50) and `offset` page. Robot actions carry a `screenshot_url`.',
  tags,
  auth: policies.key,
  params: instanceParamsSchema,
  query: listLogsQuerySchema,
  response: z.array(InstanceLogSchema),
  errors: ['NOT_FOUND'],
  handler: async ({ siteId, params, query, res }) => {
    const { items, total } = await instanceLogs(siteId, params.id, query);
    res.meta = paginationMeta(total, query.limit, query.offset);
    return items;
  },
});

// POST /api/instances/{id}/logs — add an entry to the instance's log
export const POST = defineRoute({
  summary: 'Add a log entry to an instance',
  tags,
  auth: policies.key,
  params: instanceParamsSchema,
  body: createLogBodySchema,
  response: InstanceLogSchema,
  status: 201,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params, body }) => addLog(siteId, params.id, body),
});
