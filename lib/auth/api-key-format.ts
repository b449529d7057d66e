import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * API key strings: `<prefix>_<body><check>`.
 * - body: 32 bytes (256 bits) from the CSPRNG, base62, fixed 43 characters;
 * - check: CRC-32 of `<prefix>_<body>`, base62, fixed 6 characters.
 * The check lets a typo or a made-up string be refused before any database lookup.
 * Only SHA-256(key) is stored; the key is high-entropy, so a slow hash adds nothing.
 */
export const KEY_PREFIX_PATTERN = /^[a-z0-9]{1,16}$/;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 43; // ceil(256 / log2(62))
const CHECK_LENGTH = 6; // ceil(32 / log2(62))
const KEY_PATTERN = new RegExp(`^([a-z0-9]{1,16})_([0-9A-Za-z]{${BODY_LENGTH + CHECK_LENGTH}})$`);

/**
 * Platform keys have the same body and check under a fixed prefix that contains an underscore,
 * which an API-key prefix cannot: no API key is ever mistaken for a platform key, nor the reverse.
 */
export const PLATFORM_KEY_PREFIX = 'sgp_pk';
const PLATFORM_KEY_PATTERN = new RegExp(`^${PLATFORM_KEY_PREFIX}_[0-9A-Za-z]{${BODY_LENGTH + CHECK_LENGTH}}$`);

function base62(value: bigint, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = ALPHABET[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out;
}

const checkOf = (head: string) => base62(BigInt(crc32(head)), CHECK_LENGTH);

function generateKey(prefix: string): string {
  const head = `${prefix}_${base62(BigInt('0x' + randomBytes(32).toString('hex')), BODY_LENGTH)}`;
  return head + checkOf(head);
}

const checks = (key: string) => key.slice(-CHECK_LENGTH) === checkOf(key.slice(0, key.length - CHECK_LENGTH));

export function generateApiKey(prefix: string): string {
  if (!KEY_PREFIX_PATTERN.test(prefix)) throw new Error('invalid key prefix');
  return generateKey(prefix);
}

/** True when the string has the shape of a key and its check characters match. */
export function isWellFormedApiKey(key: string): boolean {
  return KEY_PATTERN.test(key) && checks(key);
}

export const generatePlatformKey = (): string => generateKey(PLATFORM_KEY_PREFIX);

/** True when the string has the shape of a platform key and its check characters match. */
export function isWellFormedPlatformKey(key: string): boolean {
  return PLATFORM_KEY_PATTERN.test(key) && checks(key);
}

/** SHA-256 of the key, hex: one call, no hash object per request (every authenticated request hashes its key). */
export const hashApiKey = (key: string) => hash('sha256', key, 'hex');

export const displaySuffixOf = (key: string) => key.slice(-4);
