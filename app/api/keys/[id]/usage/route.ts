import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { keyUsagePathSchema, keyUsageQuerySchema, KeyUsageSchema } from '@/lib/keys/schema';
import { keyUsage } from '@/lib/keys/service';

// GET /api/keys/{id}/usage — requests per day, last use and last status of one key, for the console
export const GET = defineRoute({
  summary: 'Usage of an API key',
  description:
    'Requests per UTC day (zero-filled, oldest first), errors per day, the time and status of the latest request. ' +
    'Usage is recorded within about a second of each request; per-request rows are kept KEY_USAGE_RETENTION_DAYS days (default 90).',
  tags: ['API keys'],
  auth: policies.owner,
  permission: 'keys.manage',
  params: keyUsagePathSchema,
  query: keyUsageQuerySchema,
  response: KeyUsageSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params, query }) => keyUsage(siteId!, params.id, query.days),
});
