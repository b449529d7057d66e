import { ApiError, notFound } from '@/lib/http/errors';
import type { User } from '@/lib/users/schema';
import { createKey, listKeys, revokeKey } from './repo';
import type { CreateKeyInput } from './schema';

// The spec allows a `user_id` in key requests; it may only name the signed-in user.
function assertSelf(user: User, userId: string | undefined) {
  if (userId && userId.toLowerCase() !== user.id) throw new ApiError('FORBIDDEN', 'user_id must be the signed-in user');
}

export function createKeyForUser(user: User, siteId: string, input: CreateKeyInput) {
  assertSelf(user, input.user_id);
  return createKey(siteId, user.id, input);
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
