import { log } from '@/lib/core/log';
import { isCurrent, MasterKeyUnavailableError, rewrapSecret, SecretIntegrityError } from './envelope';
import type { Keyring } from './keyring';
import { rowsToRewrap, replaceWrappedKey, sealedOf } from './repo';

export interface RotationReport {
  /** Rows now wrapped by the current master key. */
  rewrapped: number;
  /** Rows changed or deleted by someone else while being rewrapped (left as they are). */
  skipped: number;
  /** Rows whose data key could not be unwrapped (unknown version or failed integrity), by token id. */
  failed: { token_id: string; site_id: string; reason: 'key_unavailable' | 'integrity_failure' }[];
}

/**
 * Re-wraps every data key with the current master key, row by row: each row changes in one
 * statement, so decrypts keep working throughout (an old wrap opens with its still-listed key, a
 * new one with the current key). Sealed values are never touched. Safe to run again or in
 * parallel (compare-and-set per row).
 */
export async function rotateSecureTokens(keyring: Keyring, o: { batch?: number } = {}): Promise<RotationReport> {
  const batch = o.batch ?? 100;
  const report: RotationReport = { rewrapped: 0, skipped: 0, failed: [] };
  const current = { keyId: keyring.current.id, keyVersion: keyring.current.version };
  for (let after: string | undefined; ;) {
    const rows = await rowsToRewrap(current, after, batch);
    if (rows.length === 0) return report;
    for (const row of rows) {
      const sealed = sealedOf(row);
      if (isCurrent(keyring, sealed)) continue;
      try {
        const next = rewrapSecret(keyring, { siteId: row.siteId, tokenId: row.id }, sealed);
        if (await replaceWrappedKey(row, next)) report.rewrapped++;
        else report.skipped++;
      } catch (error) {
        if (!(error instanceof MasterKeyUnavailableError || error instanceof SecretIntegrityError)) throw error;
        const reason = error instanceof MasterKeyUnavailableError ? 'key_unavailable' : 'integrity_failure';
        report.failed.push({ token_id: row.id, site_id: row.siteId, reason });
        log.warn('secure token not rewrapped', { token_id: row.id, site_id: row.siteId, key_version: row.keyVersion, reason });
      }
    }
    after = rows.at(-1)!.id;
  }
}
