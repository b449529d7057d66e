import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Keyring, MasterKey } from './keyring';

/**
 * Envelope encryption of one secret. The value is sealed with AES-256-GCM under a random data key
 * of its own; the data key is sealed with AES-256-GCM under the current master key. Associated
 * data binds the value to its site and token id, and the wrapped data key additionally to the
 * master key id and version: a sealed row copied to another id or site, or relabelled with
 * another key version, does not open. Failures say which kind they are, never what was sealed.
 */
export interface SealedSecret {
  /** base64 */
  iv: string;
  ciphertext: string;
  tag: string;
  /** base64 of iv (12) | sealed data key (32) | tag (16) */
  wrappedKey: string;
  keyId: string;
  keyVersion: number;
}

export interface SecretBinding {
  siteId: string;
  tokenId: string;
}

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** The sealed form does not open: tampered, copied to another row, or sealed under another key. */
export class SecretIntegrityError extends Error {
  constructor() {
    super('The stored secret failed its integrity check');
  }
}

/** The master key version the row names is not configured. */
export class MasterKeyUnavailableError extends Error {
  constructor(readonly keyVersion: number) {
    super(`Master key version ${keyVersion} is not configured`);
  }
}

const valueAad = (b: SecretBinding) => Buffer.from(`sgp.secure-token.value.v1\0${b.siteId.toLowerCase()}\0${b.tokenId.toLowerCase()}`);
const keyAad = (b: SecretBinding, master: Pick<MasterKey, 'id' | 'version'>) =>
  Buffer.from(`sgp.secure-token.key.v1\0${b.siteId.toLowerCase()}\0${b.tokenId.toLowerCase()}\0${master.id}\0${master.version}`);

function seal(key: Buffer, plaintext: Buffer, aad: Buffer) {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, ciphertext, tag: cipher.getAuthTag() };
}

function open(key: Buffer, parts: { iv: Buffer; ciphertext: Buffer; tag: Buffer }, aad: Buffer): Buffer {
  // GCM accepts shorter tags unless told otherwise: only full-length ones are taken.
  if (parts.iv.length !== IV_BYTES || parts.tag.length !== TAG_BYTES) throw new SecretIntegrityError();
  try {
    const decipher = createDecipheriv(ALGORITHM, key, parts.iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad);
    decipher.setAuthTag(parts.tag);
    return Buffer.concat([decipher.update(parts.ciphertext), decipher.final()]);
  } catch {
    throw new SecretIntegrityError();
  }
}

const b64 = (buffer: Buffer) => buffer.toString('base64');
function unb64(text: string): Buffer {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new SecretIntegrityError();
  return Buffer.from(text, 'base64');
}

function wrap(master: MasterKey, dataKey: Buffer, binding: SecretBinding) {
  const sealed = seal(master.key, dataKey, keyAad(binding, master));
  return { wrappedKey: b64(Buffer.concat([sealed.iv, sealed.ciphertext, sealed.tag])), keyId: master.id, keyVersion: master.version };
}

function masterOf(keyring: Keyring, sealed: Pick<SealedSecret, 'keyId' | 'keyVersion'>): MasterKey {
  const master = keyring.keys.find((k) => k.version === sealed.keyVersion);
  if (!master) throw new MasterKeyUnavailableError(sealed.keyVersion);
  // Same version, another key (a different SECRETS_MASTER_KEY, or a relabelled row): it cannot open.
  if (master.id !== sealed.keyId) throw new SecretIntegrityError();
  return master;
}

function unwrap(keyring: Keyring, sealed: SealedSecret, binding: SecretBinding): Buffer {
  const master = masterOf(keyring, sealed);
  const raw = unb64(sealed.wrappedKey);
  if (raw.length !== IV_BYTES + KEY_BYTES + TAG_BYTES) throw new SecretIntegrityError();
  const parts = { iv: raw.subarray(0, IV_BYTES), ciphertext: raw.subarray(IV_BYTES, IV_BYTES + KEY_BYTES), tag: raw.subarray(IV_BYTES + KEY_BYTES) };
  return open(master.key, parts, keyAad(binding, master));
}

export function encryptSecret(keyring: Keyring, binding: SecretBinding, value: string): SealedSecret {
  const dataKey = randomBytes(KEY_BYTES);
  try {
    const sealed = seal(dataKey, Buffer.from(value, 'utf8'), valueAad(binding));
    return { iv: b64(sealed.iv), ciphertext: b64(sealed.ciphertext), tag: b64(sealed.tag), ...wrap(keyring.current, dataKey, binding) };
  } finally {
    dataKey.fill(0);
  }
}

export function decryptSecret(keyring: Keyring, binding: SecretBinding, sealed: SealedSecret): string {
  const dataKey = unwrap(keyring, sealed, binding);
  try {
    const plain = open(dataKey, { iv: unb64(sealed.iv), ciphertext: unb64(sealed.ciphertext), tag: unb64(sealed.tag) }, valueAad(binding));
    return plain.toString('utf8');
  } finally {
    dataKey.fill(0);
  }
}

/** The same secret with its data key wrapped by the current master key (the sealed value is unchanged). */
export function rewrapSecret(keyring: Keyring, binding: SecretBinding, sealed: SealedSecret): SealedSecret {
  const dataKey = unwrap(keyring, sealed, binding);
  try {
    return { ...sealed, ...wrap(keyring.current, dataKey, binding) };
  } finally {
    dataKey.fill(0);
  }
}

export const isCurrent = (keyring: Keyring, sealed: Pick<SealedSecret, 'keyId' | 'keyVersion'>) =>
  sealed.keyId === keyring.current.id && sealed.keyVersion === keyring.current.version;
