import { createHmac, randomBytes } from 'node:crypto';
import { seal, unseal } from '@/lib/auth/seal';

/**
 * Endpoint signing secrets (Standard Webhooks): `whsec_<base64 of 24 random bytes>`, shown once.
 * We must sign with them later, so they are stored sealed (lib/auth/seal.ts), never hashed and
 * never in clear.
 */
export const SECRET_PREFIX = 'whsec_';

export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

export const encryptSecret = (secret: string): string => seal('webhook-signing-secret', secret);

export const decryptSecret = (stored: string): string => unseal('webhook-signing-secret', stored);

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
