import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';

// GET /api/health — liveness; does no work (also the baseline route of the benchmarks)
export const GET = defineRoute({
  summary: 'Health check',
  tags: ['Meta'],
  auth: policies.public,
  response: z.object({ status: z.literal('ok') }),
  handler: () => ({ status: 'ok' as const }),
});
