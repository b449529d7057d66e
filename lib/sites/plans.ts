import { z } from 'zod';
import type { PlanLimits } from '@/lib/core/principal';

/**
 * A site's plan sets the rate limits of its API-key requests (spec §8). Enterprise sites carry
 * their own values; the plan is changed by an operator (`npm run site:plan`), not through the API.
 */
export const PLANS = ['basic', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export type { PlanLimits };

export const PLAN_LIMITS: Record<Exclude<Plan, 'enterprise'>, PlanLimits> = {
  basic: { perMinute: 60, concurrent: 5 },
  pro: { perMinute: 300, concurrent: 20 },
};

export const sitePlanSchema = z.discriminatedUnion('plan', [
  z.strictObject({ plan: z.literal('basic').describe('60 requests/min, 5 concurrent') }),
  z.strictObject({ plan: z.literal('pro').describe('300 requests/min, 20 concurrent') }),
  z.strictObject({
    plan: z.literal('enterprise').describe('Custom limits'),
    rate_limit_per_minute: z.number().int().min(1).describe('Requests per minute'),
    concurrency_limit: z.number().int().min(1).describe('Concurrent requests'),
  }),
]);
export type SitePlanInput = z.infer<typeof sitePlanSchema>;

/** The limits of a stored plan. Enterprise without values (not allowed by the table) falls back to Basic. */
export function planLimits(plan: string, perMinute: number | null, concurrent: number | null): PlanLimits {
  if (plan === 'enterprise' && perMinute && concurrent) return { perMinute, concurrent };
  return PLAN_LIMITS[plan as keyof typeof PLAN_LIMITS] ?? PLAN_LIMITS.basic;
}

/**
 * Workflow runs a site may have RUNNING at once; a start beyond it answers 429 RATE_LIMITED.
 * Waiting runs (e.g. humanIntervention) count until they end. Enterprise: ten per concurrent
 * request of its custom limits.
 */
export const WORKFLOW_RUNNING_CAPS = { basic: 10, pro: 50 } as const;

export function workflowRunningCap(plan: string, concurrent: number | null): number {
  if (plan === 'enterprise' && concurrent) return concurrent * 10;
  return WORKFLOW_RUNNING_CAPS[plan as keyof typeof WORKFLOW_RUNNING_CAPS] ?? WORKFLOW_RUNNING_CAPS.basic;
}
