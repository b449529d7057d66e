import { currentDate } from '@/lib/core/clock';
import { config } from '@/lib/core/config';
import { ApiError, notFound } from '@/lib/core/errors';
import { withinSiteCap } from '@/lib/sites/caps';
import type { User } from '@/lib/users/schema';
import { countLiveKeys, createKey, keyUsageByDay, listKeys, revokeKey, setKeyScopes } from './repo';
import type { CreateKeyInput, KeySummary, KeyUsage, UpdateKeyInput } from './schema';

export { findKeyByHash, keyStatusOf } from './repo';

// The spec allows a `user_id` in key requests; it may only name the signed-in user.
function assertSelf(user: User, userId: string | undefined) {
  if (userId && userId.toLowerCase() !== user.id) throw new ApiError('FORBIDDEN', 'user_id must be the signed-in user');
}

export function createKeyForUser(user: User, siteId: string, input: CreateKeyInput) {
  assertSelf(user, input.user_id);
  return withinSiteCap(
    siteId,
    'api_keys_per_site',
    (tx) => countLiveKeys(siteId, tx),
    (tx) => createKey(siteId, user.id, input, undefined, tx),
  );
}

export function listKeysForUser(user: User, siteId: string, userId?: string) {
  assertSelf(user, userId);
  return listKeys(siteId);
}

export async function revokeKeyForUser(user: User, siteId: string, keyId: string, userId?: string) {
  assertSelf(user, userId);
  const outcome = await revokeKey(siteId, keyId);
  if (!outcome) throw notFound('API key');
  return { message: outcome === 'revoked' ? 'API key revoked' : 'API key was already revoked' };
}

/** Changes a key's scopes (a key lowered to read-only refuses writes on every process before this answers). */
export async function updateKeyForUser(user: User, siteId: string, input: UpdateKeyInput): Promise<KeySummary> {
  assertSelf(user, input.user_id);
  const outcome = await setKeyScopes(siteId, input.id, input.scopes);
  if (!outcome) throw notFound('API key');
  if (outcome === 'revoked') throw new ApiError('CONFLICT', 'A revoked key cannot be changed');
  return outcome;
}

const DAY_MS = 86_400_000;
const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);

/**
 * Usage of one key of the site for the console: requests per UTC day over the last `days` days
 * (today included, zero-filled), the last use and the status of the latest request.
 */
export async function keyUsage(siteId: string, keyId: string, days = 30, now = currentDate()): Promise<KeyUsage> {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const from = today - (days - 1) * DAY_MS;
  const stored = await keyUsageByDay(siteId, keyId, new Date(from));
  if (!stored) throw notFound('API key');
  const counted = new Map(stored.days.map((d) => [d.day, d]));
  const series = Array.from({ length: days }, (_, i) => {
    const date = isoDay(from + i * DAY_MS);
    const row = counted.get(date);
    return { date, requests: row?.requests ?? 0, errors: row?.errors ?? 0 };
  });
  return {
    key_id: keyId,
    site_id: siteId,
    from: isoDay(from),
    to: isoDay(today),
    retention_days: config().KEY_USAGE_RETENTION_DAYS,
    total_requests: series.reduce((sum, d) => sum + d.requests, 0),
    last_used_at: stored.lastUsedAt?.toISOString() ?? null,
    last_status: stored.lastStatus,
    days: series,
  };
}
