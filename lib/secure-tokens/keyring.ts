import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { config } from '@/lib/core/config';
import { defineProvider, provider } from '@/lib/core/providers';

/**
 * The master keys that wrap each secret's data key. `SECRETS_MASTER_KEY` lists them as
 * `v<version>:<base64 of 32 bytes>` separated by commas, the current one first
 * (`v2:…,v1:…`): new secrets and rotation use the first, every listed version still decrypts.
 * Without it, the embedded database (no DATABASE_URL) keeps its keys in a file of the same
 * format under DATA_DIR, created on first use with mode 0600; with DATABASE_URL the variable is
 * required (instances sharing a database must share the keys), else the slot is empty and the
 * routes answer 503 PROVIDER_NOT_CONFIGURED.
 */
export interface MasterKey {
  /** Fingerprint of the key (not the key): tells two keys of the same version apart. */
  id: string;
  version: number;
  key: Buffer;
}

export interface Keyring {
  source: 'env' | 'file';
  current: MasterKey;
  keys: MasterKey[];
}

const KEY_BYTES = 32;
const ENTRY = /^v([1-9]\d{0,8})$/;

/** Error messages name the entry's position and version, never its material. */
export class MasterKeyFormatError extends Error {}

export function masterKeyId(key: Buffer): string {
  return createHash('sha256').update('sgp.secure-tokens.master-key-id\0').update(key).digest('hex').slice(0, 16);
}

export function parseMasterKeys(text: string): MasterKey[] {
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new MasterKeyFormatError('no master key listed');
  const keys = entries.map((entry, index) => {
    const colon = entry.indexOf(':');
    const label = colon > 0 ? entry.slice(0, colon) : '';
    const version = ENTRY.exec(label)?.[1];
    if (!version) throw new MasterKeyFormatError(`entry ${index + 1} must look like v<version>:<base64 of 32 bytes>`);
    const material = entry.slice(colon + 1);
    const key = /^[A-Za-z0-9+/]+={0,2}$/.test(material) ? Buffer.from(material, 'base64') : Buffer.alloc(0);
    if (key.length !== KEY_BYTES) throw new MasterKeyFormatError(`entry ${index + 1} (v${version}) is not the base64 of 32 bytes`);
    return { id: masterKeyId(key), version: Number(version), key };
  });
  if (new Set(keys.map((k) => k.version)).size !== keys.length) throw new MasterKeyFormatError('a version is listed twice');
  return keys;
}

export const formatMasterKeys = (keys: MasterKey[]) => keys.map((k) => `v${k.version}:${k.key.toString('base64')}`).join(',');

export function keyringOf(keys: MasterKey[], source: Keyring['source']): Keyring {
  return { source, current: keys[0], keys };
}

/** The key file of the embedded database. */
export const masterKeyFilePath = () => path.resolve(/*turbopackIgnore: true*/ config().DATA_DIR, 'secrets', 'master.keys');

/** Reads the key file, creating it with one fresh key (v1) if it does not exist yet. */
export function loadOrCreateKeyFile(file = masterKeyFilePath()): MasterKey[] {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    // `wx`: of two processes starting at once, one creates the file and the other reads it.
    writeFileSync(file, `${formatMasterKeys([{ id: '', version: 1, key: randomBytes(KEY_BYTES) }])}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return parseMasterKeys(readFileSync(file, 'utf8'));
}

/** Adds a new current key to the key file (the others stay for decrypting); returns the new keys. */
export function addKeyToFile(file = masterKeyFilePath()): MasterKey[] {
  const keys = loadOrCreateKeyFile(file);
  const next = { id: '', version: Math.max(...keys.map((k) => k.version)) + 1, key: randomBytes(KEY_BYTES) };
  const all = [{ ...next, id: masterKeyId(next.key) }, ...keys];
  writeFileSync(file, `${formatMasterKeys(all)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return all;
}

declare module '@/lib/core/providers' {
  interface ProviderMap {
    /** null: no master key configured (DATABASE_URL without SECRETS_MASTER_KEY). */
    secretsKeyring: Keyring | null;
  }
}

defineProvider('secretsKeyring', () => {
  const c = config();
  if (c.SECRETS_MASTER_KEY) {
    try {
      return keyringOf(parseMasterKeys(c.SECRETS_MASTER_KEY), 'env');
    } catch (error) {
      throw new MasterKeyFormatError(`SECRETS_MASTER_KEY is invalid: ${(error as Error).message}`);
    }
  }
  if (c.DATABASE_URL) return null;
  return keyringOf(loadOrCreateKeyFile(), 'file');
});

export const secretsKeyring = (): Keyring | null => provider('secretsKeyring');
