import { z } from 'zod';
import { config } from '@/lib/core/config';
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

/**
 * How much a plan may hold (docs/OPERATIONS.md "Plan caps"). Per-site counts use the site's plan; the sites
 * and robots of an account use the best plan among the account's sites. PLAN_CAPS overrides any
 * value of any plan. Going over answers 403 PLAN_LIMIT_REACHED.
 */
export interface PlanCaps {
  sites_per_account: number;
  robots_per_account: number;
  api_keys_per_site: number;
  webhook_endpoints_per_site: number;
  platform_apps_per_site: number;
  secrets_per_site: number;
  upload_bytes_per_site: number;
  /** Members plus pending invitations. */
  members_per_site: number;
}
export type PlanCap = keyof PlanCaps;

const GIB = 1024 ** 3;
export const DEFAULT_PLAN_CAPS: Record<Plan, PlanCaps> = {
  basic: {
    sites_per_account: 10,
    robots_per_account: 4,
    api_keys_per_site: 25,
    webhook_endpoints_per_site: 50,
    platform_apps_per_site: 10,
    secrets_per_site: 100,
    upload_bytes_per_site: GIB,
    members_per_site: 5,
  },
  pro: {
    sites_per_account: 50,
    robots_per_account: 8,
    api_keys_per_site: 100,
    webhook_endpoints_per_site: 200,
    platform_apps_per_site: 50,
    secrets_per_site: 1_000,
    upload_bytes_per_site: 20 * GIB,
    members_per_site: 25,
  },
  enterprise: {
    sites_per_account: 200,
    robots_per_account: 32,
    api_keys_per_site: 500,
    webhook_endpoints_per_site: 500,
    platform_apps_per_site: 200,
    secrets_per_site: 10_000,
    upload_bytes_per_site: 200 * GIB,
    members_per_site: 500,
  },
};

const planCapsOverrideSchema = z.partialRecord(
  z.enum(PLANS),
  z.strictObject(
    Object.fromEntries(Object.keys(DEFAULT_PLAN_CAPS.basic).map((k) => [k, z.number().int().min(0).optional()])) as Record<
      PlanCap,
      z.ZodOptional<z.ZodNumber>
    >,
  ),
);

/** The value of `cap` under `plan`, with the operator's PLAN_CAPS (unknown plan → Basic). */
export function planCap(plan: string, cap: PlanCap): number {
  const known = (PLANS as readonly string[]).includes(plan) ? (plan as Plan) : 'basic';
  const override = planCapsOverrideSchema.safeParse(config().PLAN_CAPS);
  if (!override.success)
    throw new Error(
      `Invalid environment configuration: PLAN_CAPS: ${override.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return override.data[known]?.[cap] ?? DEFAULT_PLAN_CAPS[known][cap];
}

/** The best of several plans (an account's sites), Basic when there is none. */
export function bestPlan(plans: string[]): Plan {
  return PLANS.reduce<Plan>((best, p) => (plans.includes(p) ? p : best), 'basic');
}
