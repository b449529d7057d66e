import { z } from 'zod';
import { uuidSchema } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { INSTANCE_TAGS as tags } from '@/lib/http/robot-policy';
import { instanceParamsSchema, screenshotQuerySchema } from '@/lib/robots/instance-schema';
import { screenshotOf } from '@/lib/robots/instances';

// GET /api/instances/{id}/screenshot — the latest screenshot of the instance, or a log entry's
export const GET = defineRoute({
  summary: 'Get a screenshot of an instance',
  description: "The PNG (base64) taken with the log entry `log_id`, or the instance's latest; 404 when there is none.",
  tags,
  auth: policies.key,
  params: instanceParamsSchema,
  query: screenshotQuerySchema,
  response: z.object({
    instance_id: uuidSchema,
    log_id: uuidSchema.nullable(),
    content_type: z.literal('image/png'),
    data_base64: z.string().describe('The PNG, base64-encoded'),
  }),
  errors: ['NOT_FOUND'],
  handler: async ({ siteId, params, query }) => ({
    instance_id: params.id,
    log_id: query.log_id ?? null,
    content_type: 'image/png' as const,
    data_base64: Buffer.from(await screenshotOf(siteId, params.id, query.log_id)).toString('base64'),
  }),
});
