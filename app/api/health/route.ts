import { z } from 'zod';
import { defineRoute } from '@/lib/http/define-route';
import { policies } from '@/lib/http/auth/policies';

// GET /api/health — liveness; does no work (also the baseline route of the benchmarks)
export const GET = defineRoute({
  summary: 'Health check',
  tags: ['Meta'],
  auth: policies.public,
  response: z.object({ status: z.literal('ok') }),
  handler: () => ({ status: 'ok' as const }),
});
