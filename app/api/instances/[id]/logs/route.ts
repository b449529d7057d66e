import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { INSTANCE_TAGS as tags } from '@/lib/http/robot-policy';
import { routeGroup, withPageMeta } from '@/lib/http/route-group';
import { createLogBodySchema, InstanceLogSchema, instanceParamsSchema, listLogsQuerySchema } from '@/lib/robots/instance-schema';
import { addLog, instanceLogs } from '@/lib/robots/instances';

const route = routeGroup({ tags, auth: policies.key, params: instanceParamsSchema });

// GET /api/instances/{id}/logs — the instance's log, newest first
export const GET = route({
  summary: 'List the logs of an instance',
  description: 'Newest first; filter by `log_type` and `level`; `limit` (default 50) and `offset` page. Robot actions carry a `screenshot_url`.',
  query: listLogsQuerySchema,
  response: z.array(InstanceLogSchema),
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params, query, res }) => withPageMeta(res, query, instanceLogs(siteId, params.id, query)),
});

// POST /api/instances/{id}/logs — add an entry to the instance's log
export const POST = route({
  summary: 'Add a log entry to an instance',
  body: createLogBodySchema,
  response: InstanceLogSchema,
  status: 201,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params, body }) => addLog(siteId, params.id, body),
});
