import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { authSecret } from './secret';

/**
 * Values the service must read back later (a webhook's signing secret, an instance's environment
 * variables, an account's TOTP secret) are stored sealed: AES-256-GCM under a key derived (HKDF-SHA256) from the server
 * secret for one purpose, as `v1.<iv>.<tag>.<ciphertext>` (base64url). A sealed value of one
 * purpose does not open under another. Changing AUTH_SECRET makes sealed values unreadable.
 * (Secure tokens use their own envelope with rotatable master keys: lib/secure-tokens.)
 */
export type SealPurpose = 'webhook-signing-secret' | 'instance-environment' | 'totp-secret';

const keyFor = (purpose: SealPurpose) => Buffer.from(hkdfSync('sha256', authSecret(), 'sgp.seal', purpose, 32));

export function seal(purpose: SealPurpose, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(purpose), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** Opens a sealed value; throws when it was altered, sealed for another purpose or under another secret. */
export function unseal(purpose: SealPurpose, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', keyFor(purpose), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
