/**
 * Re-wraps every secure token's data key with the current master key (the first version of
 * SECRETS_MASTER_KEY), row by row, while the service keeps running: decrypts work throughout
 * because every version still listed keeps opening the rows not yet rewrapped.
 *
 *   npm run secrets:rotate              # after putting the new version first in SECRETS_MASTER_KEY
 *   npm run secrets:rotate -- --new-key # embedded key file only: add a new current version first
 *
 * Uses the configured database (DATABASE_URL, else PGlite under DATA_DIR; PGlite allows one
 * process at a time, so there stop the server first). Prints counts only, never key material.
 * Once it reports no failures, older versions may be removed from SECRETS_MASTER_KEY.
 */
import { resetProviders } from '@/lib/core/providers';
import { database } from '@/lib/db/client';
import { addKeyToFile, secretsKeyring } from '@/lib/secure-tokens/keyring';
import { countByKeyVersion } from '@/lib/secure-tokens/repo';
import { rotateSecureTokens } from '@/lib/secure-tokens/rotate';

async function main() {
  const args = process.argv.slice(2);
  if (args.some((a) => a !== '--new-key')) throw new Error('usage: secrets-rotate [--new-key]');
  if (args.includes('--new-key')) {
    const ring = secretsKeyring();
    if (ring?.source !== 'file') throw new Error('--new-key manages the embedded key file; with SECRETS_MASTER_KEY put the new version first there');
    addKeyToFile();
    await resetProviders();
  }
  const ring = secretsKeyring();
  if (!ring) throw new Error('SECRETS_MASTER_KEY is not set (required with DATABASE_URL)');
  const db = await database();
  try {
    const report = await rotateSecureTokens(ring);
    console.log(`current master key: v${ring.current.version} (${ring.current.id})`);
    console.log(`rewrapped ${report.rewrapped}, skipped ${report.skipped} (changed meanwhile), failed ${report.failed.length}`);
    for (const f of report.failed) console.log(`  failed ${f.token_id} (site ${f.site_id}): ${f.reason}`);
    for (const v of await countByKeyVersion()) console.log(`  v${v.key_version} (${v.key_id}): ${v.count} secret(s)`);
    if (report.failed.length) process.exitCode = 2;
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
