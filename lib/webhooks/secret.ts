import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { authSecret } from '@/lib/auth/secret';

/**
 * Endpoint signing secrets (Standard Webhooks): `whsec_<base64 of 24 random bytes>`, shown once.
 * We must sign with them later, so they are stored encrypted (AES-256-GCM under a key derived
 * from the server secret), never hashed and never in clear.
 */
export const SECRET_PREFIX = 'whsec_';

export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

const key = () => Buffer.from(hkdfSync('sha256', authSecret(), 'sgp-webhook-secrets', 'aes-256-gcm', 32));

export function encryptSecret(secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(), iv);
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}

export function decryptSecret(stored: string): string {
  const [version, iv, tag, data] = stored.split('.');
  if (version !== 'v1') throw new Error('Unknown secret encryption version');
  const decipher = createDecipheriv('aes-256-gcm', key(), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

/** `v1,<base64 HMAC-SHA256>` of `${id}.${timestamp}.${body}` with the secret's key bytes. */
export function signPayload(secret: string, id: string, timestamp: number, body: string): string {
  const keyBytes = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return 'v1,' + createHmac('sha256', keyBytes).update(`${id}.${timestamp}.${body}`).digest('base64');
}

/** The three Standard Webhooks headers; during a rotation's grace period both secrets sign (space-separated). */
export function signatureHeaders(secrets: string[], id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signPayload(s, id, timestamp, body)).join(' '),
  };
}
