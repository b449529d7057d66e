import { ApiError } from '@/lib/core/errors';
import type { Db } from '@/lib/db/client';
import { lockedTransaction } from '@/lib/db/lock';
import { bestPlan, planCap, type PlanCap } from './plans';
import { planOfSite, plansOfOwner } from './repo';

/**
 * Plan caps on what a site or an account holds. The count and the insert it allows are one
 * transaction that first takes the cap's transaction lock (`lockedTransaction`): parallel
 * requests — of this process, of the worker, of other instances — never pass a cap together.
 */
const WHAT: Record<PlanCap, string> = {
  sites_per_account: 'sites',
  robots_per_account: 'running robot browsers',
  api_keys_per_site: 'API keys',
  webhook_endpoints_per_site: 'webhook endpoints',
  platform_apps_per_site: 'platform apps',
  secrets_per_site: 'secure tokens',
  upload_bytes_per_site: 'bytes of uploaded files',
  members_per_site: 'members and pending invitations',
};

/** 403 PLAN_LIMIT_REACHED: what is `used` plus what is added would go over the plan's `limit`. */
function planLimitReached(cap: PlanCap, plan: string, limit: number, used: number): ApiError {
  const owner = cap.endsWith('_per_account') ? 'account' : 'site';
  return new ApiError('PLAN_LIMIT_REACHED', `This ${owner}'s plan (${plan}) allows ${limit} ${WHAT[cap]}; remove some or move to a larger plan`, {
    cap,
    plan,
    limit,
    used,
  });
}

/** The cap of a site's plan. */
async function siteCap(siteId: string, cap: PlanCap): Promise<{ plan: string; limit: number }> {
  const { plan } = await planOfSite(siteId);
  return { plan, limit: planCap(plan, cap) };
}

/** The cap of an account: the best plan among its sites. */
export async function accountCap(ownerId: string, cap: PlanCap): Promise<{ plan: string; limit: number }> {
  const plan = bestPlan(await plansOfOwner(ownerId));
  return { plan, limit: planCap(plan, cap) };
}

/**
 * Runs `insert` when `used` plus `adding` stays within the cap `limitOf` gives: both on the
 * transaction they are given, after its lock on `key`. The plan is read before (a plan change
 * is rare and not worth holding the lock for).
 */
async function withinCap<T>(
  key: string,
  cap: PlanCap,
  limitOf: () => Promise<{ plan: string; limit: number }>,
  used: (tx: Db) => Promise<number>,
  insert: (tx: Db) => Promise<T>,
  adding: number,
): Promise<T> {
  const { plan, limit } = await limitOf();
  return lockedTransaction([`cap:${cap}:${key}`], async (tx) => {
    const now = await used(tx);
    if (now + adding > limit) throw planLimitReached(cap, plan, limit, now);
    return insert(tx);
  });
}

/**
 * Runs `insert` when the site holds fewer than its plan allows of `cap` (`used` counts what it
 * holds; `adding` is what the insert adds, 1 by default or the bytes of a file). Both must run
 * their statements on the transaction they are given, and nothing else: no other database
 * work, no slow outside calls (on the embedded database the transaction holds the one backend).
 */
export const withinSiteCap = <T>(
  siteId: string,
  cap: PlanCap,
  used: (tx: Db) => Promise<number>,
  insert: (tx: Db) => Promise<T>,
  adding = 1,
): Promise<T> => withinCap(siteId, cap, () => siteCap(siteId, cap), used, insert, adding);

/** As withinSiteCap, for what an account holds across its sites. */
export const withinAccountCap = <T>(ownerId: string, cap: PlanCap, used: (tx: Db) => Promise<number>, insert: (tx: Db) => Promise<T>): Promise<T> =>
  withinCap(ownerId, cap, () => accountCap(ownerId, cap), used, insert, 1);
