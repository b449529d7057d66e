import { sql } from 'drizzle-orm';
import { now } from '@/lib/core/clock';
import { config } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';
import type { Capability } from '@/lib/core/principal';
import { rows } from '@/lib/db/raw';

/**
 * Daily quotas of the platform API, per app and capability, counted in units per UTC day:
 * leads read (one per call), leads created, tracking events, email recipients, migrations.
 * PLATFORM_DAILY_QUOTAS overrides any of them.
 */
export const DEFAULT_DAILY_QUOTAS: Record<Capability, number> = {
  'leads.read': 10_000,
  'leads.write': 5_000,
  'tracking.event.write': 100_000,
  'email.send': 1_000,
  'email.send.test-only': 100,
  'db.migrate': 100,
};

export const dailyQuota = (capability: Capability): number => config().PLATFORM_DAILY_QUOTAS[capability] ?? DEFAULT_DAILY_QUOTAS[capability];

const DAY_MS = 86_400_000;

function today(at = now()): { day: string; resetsAt: number } {
  const start = Math.floor(at / DAY_MS) * DAY_MS;
  return { day: new Date(start).toISOString().slice(0, 10), resetsAt: start + DAY_MS };
}

export interface QuotaOwner {
  siteId: string;
  appId: string;
}

/**
 * Takes `units` of today's quota, or none: one conditional upsert (the row is locked by the
 * conflict, so concurrent calls never go over the limit together). 429 RATE_LIMITED with
 * Retry-After (seconds to the next UTC midnight) when the units do not fit.
 */
export async function consumeQuota(owner: QuotaOwner, capability: Capability, units = 1): Promise<{ used: number; limit: number; day: string }> {
  const limit = dailyQuota(capability);
  const { day, resetsAt } = today();
  const [row] = await rows<{ used: number }>(sql`
    insert into platform_quota_usage as q (site_id, app_id, capability, day, used)
    select ${owner.siteId}::uuid, ${owner.appId}::uuid, ${capability}, ${day}::date, ${units}::int
     where ${units}::int <= ${limit}::int
    on conflict (site_id, app_id, capability, day)
    do update set used = q.used + excluded.used
     where q.used + excluded.used <= ${limit}::int
    returning q.used`);
  if (row) return { used: Number(row.used), limit, day };
  const retryAfter = Math.max(1, Math.ceil((resetsAt - now()) / 1000));
  throw new ApiError(
    'RATE_LIMITED',
    `Daily quota of ${capability} exhausted for this app (${limit} per UTC day)`,
    { capability, limit, requested: units, resets_at: new Date(resetsAt).toISOString(), retry_after: retryAfter },
    { 'retry-after': String(retryAfter) },
  );
}

/** Gives back units taken for work that did not happen (items refused, a send that failed). */
export async function refundQuota(owner: QuotaOwner, capability: Capability, units: number, day: string): Promise<void> {
  if (units <= 0) return;
  await rows(sql`
    update platform_quota_usage set used = greatest(used - ${units}::int, 0)
     where site_id = ${owner.siteId}::uuid and app_id = ${owner.appId}::uuid and capability = ${capability} and day = ${day}::date`);
}

/** Today's use of each capability, for introspection. */
export async function quotaStatus(owner: QuotaOwner, capabilities: Capability[]) {
  const { day, resetsAt } = today();
  const used = await rows<{ capability: string; used: number }>(sql`
    select capability, used from platform_quota_usage
     where site_id = ${owner.siteId}::uuid and app_id = ${owner.appId}::uuid and day = ${day}::date`);
  const byCapability = new Map(used.map((r) => [r.capability, Number(r.used)]));
  return capabilities.map((capability) => ({
    capability,
    limit: dailyQuota(capability),
    used: byCapability.get(capability) ?? 0,
    resets_at: new Date(resetsAt).toISOString(),
  }));
}
