import { randomUUID } from 'node:crypto';
import { config } from '@/lib/core/config';
import { ApiError, notFound } from '@/lib/core/errors';
import { log } from '@/lib/core/log';
import type { ApiKeyPrincipal, SessionPrincipal } from '@/lib/core/principal';
import { paginationMeta } from '@/lib/core/schemas';
import { rateLimiter } from '@/lib/ratelimit';
import { rateLimited } from '@/lib/ratelimit/answers';
import { withinSiteCap } from '@/lib/sites/caps';
import { decryptSecret, encryptSecret, MasterKeyUnavailableError, SecretIntegrityError } from './envelope';
import { MasterKeyFormatError, secretsKeyring, type Keyring } from './keyring';
import {
  countSecureTokens,
  deleteSecureToken,
  findSecureToken,
  findSecureTokenByIdentifier,
  insertSecureToken,
  listAudit,
  listSecureTokens,
  recordAudit,
  resealSecureToken,
  sealedOf,
  touchSecureToken,
  type Actor,
} from './repo';
import type { CreateSecureTokenInput } from './schema';

export type Caller = ApiKeyPrincipal | SessionPrincipal;

const actorOf = (caller: Caller): Actor => (caller.kind === 'apiKey' ? { apiKeyId: caller.keyId } : { userId: caller.user.id });

/** The master keys, or 503 when none is configured (an external database without SECRETS_MASTER_KEY). */
function keyring(): Keyring {
  let ring: Keyring | null;
  try {
    ring = secretsKeyring();
  } catch (error) {
    // The message names the entry's position and version, never its content.
    if (error instanceof MasterKeyFormatError) throw new ApiError('PROVIDER_NOT_CONFIGURED', error.message);
    throw error;
  }
  if (!ring) throw new ApiError('PROVIDER_NOT_CONFIGURED', 'Secure tokens need SECRETS_MASTER_KEY when DATABASE_URL is set');
  return ring;
}

export async function createSecureToken(siteId: string, caller: Caller, input: CreateSecureTokenInput) {
  const id = randomUUID();
  const sealed = encryptSecret(keyring(), { siteId, tokenId: id }, input.value);
  return withinSiteCap(
    siteId,
    'secrets_per_site',
    (tx) => countSecureTokens(siteId, tx),
    (tx) => insertSecureToken(siteId, { id, type: input.type, identifier: input.identifier, sealed, actor: actorOf(caller) }, tx),
  );
}

export async function listSiteSecureTokens(siteId: string, page: { limit: number; offset: number }) {
  const { items, total } = await listSecureTokens(siteId, page);
  return { items, meta: paginationMeta(total, page.limit, page.offset) };
}

export async function removeSecureToken(siteId: string, caller: Caller, id: string) {
  if (!(await deleteSecureToken(siteId, id, actorOf(caller)))) throw notFound('Secure token');
  return { message: 'Secure token deleted' };
}

export async function siteAudit(siteId: string, page: { limit: number; offset: number }) {
  const { items, total } = await listAudit(siteId, page);
  return { items, meta: paginationMeta(total, page.limit, page.offset) };
}

const MINUTE = 60_000;

/** Decrypts allowed per minute per key and per site; stricter than the plan, which still applies. */
async function limitDecrypts(siteId: string, keyId: string): Promise<ApiError | undefined> {
  const limiter = rateLimiter();
  if (!limiter) return undefined;
  const c = config();
  const [byKey, bySite] = await Promise.all([
    limiter.limit(`secrets:decrypt:key:${keyId}`, { limit: c.SECRETS_DECRYPT_PER_KEY_PER_MINUTE, windowMs: MINUTE }),
    limiter.limit(`secrets:decrypt:site:${siteId}`, { limit: c.SECRETS_DECRYPT_PER_SITE_PER_MINUTE, windowMs: MINUTE }),
  ]);
  if (!byKey.success) return rateLimited(byKey, `Decrypt limit exceeded: ${c.SECRETS_DECRYPT_PER_KEY_PER_MINUTE} per minute per API key`);
  if (!bySite.success) return rateLimited(bySite, `Decrypt limit exceeded: ${c.SECRETS_DECRYPT_PER_SITE_PER_MINUTE} per minute per site`);
  return undefined;
}

/**
 * The secret's value, for a server holding a write key of its site. Every attempt is audited,
 * refused ones included; failures name their kind, never ciphertext or key material.
 */
export async function decryptSecureToken(siteId: string, caller: ApiKeyPrincipal, id: string) {
  const actor = actorOf(caller);
  const audit = (outcome: Parameters<typeof recordAudit>[1]['outcome'], identifier?: string) =>
    recordAudit(siteId, { tokenId: id, identifier, action: 'decrypt', outcome, actor });

  const limited = await limitDecrypts(siteId, caller.keyId);
  if (limited) {
    await audit('rate_limited');
    throw limited;
  }
  const ring = keyring();
  const row = await findSecureToken(siteId, id);
  if (!row) {
    await audit('not_found');
    throw notFound('Secure token');
  }
  let value: string;
  try {
    value = decryptSecret(ring, { siteId, tokenId: row.id }, sealedOf(row));
  } catch (error) {
    if (error instanceof MasterKeyUnavailableError) {
      await audit('key_unavailable', row.identifier);
      log.error('secure token wrapped by a master key that is not configured', { site_id: siteId, token_id: row.id, key_version: error.keyVersion });
      throw new ApiError('PROVIDER_NOT_CONFIGURED', `The master key version this secret is wrapped with (v${error.keyVersion}) is not configured`);
    }
    if (error instanceof SecretIntegrityError) {
      await audit('integrity_failure', row.identifier);
      log.error('secure token failed its integrity check', { site_id: siteId, token_id: row.id, key_version: row.keyVersion });
      throw new ApiError('SYSTEM_ERROR', 'The stored secret could not be decrypted');
    }
    throw error;
  }
  await Promise.all([touchSecureToken(siteId, row.id), audit('ok', row.identifier)]);
  return { id: row.id, type: row.type, identifier: row.identifier, value };
}

// ——— Secrets the product itself uses for a site (e.g. its mailbox password) ———

/**
 * Stores `value` as the site's secret `identifier` (replacing its value when it exists, under the
 * same id) and answers the secret's id. Audited like a creation through the API.
 */
export async function putProductSecret(siteId: string, caller: Caller, input: { type: string; identifier: string; value: string }): Promise<string> {
  const ring = keyring();
  const existing = await findSecureTokenByIdentifier(siteId, input.identifier);
  if (existing) {
    await resealSecureToken(siteId, existing.id, encryptSecret(ring, { siteId, tokenId: existing.id }, input.value), actorOf(caller));
    return existing.id;
  }
  return (await createSecureToken(siteId, caller, { ...input, site_id: siteId })).id;
}

/**
 * The value of a secret the product reads on the site's behalf (a worker signing in to the
 * site's mailbox). Audited as a decrypt without a caller; a missing or unreadable secret is an
 * ApiError naming its kind, never its content.
 */
export async function readProductSecret(siteId: string, id: string): Promise<string> {
  const ring = keyring();
  const row = await findSecureToken(siteId, id);
  if (!row) {
    await recordAudit(siteId, { tokenId: id, action: 'decrypt', outcome: 'not_found', actor: {} });
    throw notFound('Secure token');
  }
  try {
    const value = decryptSecret(ring, { siteId, tokenId: row.id }, sealedOf(row));
    await Promise.all([
      touchSecureToken(siteId, row.id),
      recordAudit(siteId, { tokenId: id, identifier: row.identifier, action: 'decrypt', outcome: 'ok', actor: {} }),
    ]);
    return value;
  } catch (error) {
    if (error instanceof MasterKeyUnavailableError || error instanceof SecretIntegrityError) {
      await recordAudit(siteId, {
        tokenId: id,
        identifier: row.identifier,
        action: 'decrypt',
        outcome: error instanceof MasterKeyUnavailableError ? 'key_unavailable' : 'integrity_failure',
        actor: {},
      });
      throw new ApiError('PROVIDER_NOT_CONFIGURED', 'The stored secret could not be decrypted with the configured master keys');
    }
    throw error;
  }
}
