import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { authSecret } from '@/lib/auth/secret';
import { HIDDEN_VALUE } from './schema';

/**
 * Environment variables of an instance are secrets: stored as one AES-256-GCM box
 * (`v1.<iv>.<tag>.<ciphertext>`, base64url) under a key derived from AUTH_SECRET; answers show
 * their names only. Only a provider starting a machine opens the box.
 */
const key = () => Buffer.from(hkdfSync('sha256', authSecret(), 'sgp.instances', 'environment-variables', 32));

export function sealEnvVars(vars: Record<string, string>): string | null {
  if (Object.keys(vars).length === 0) return null;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(vars), 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

export function openEnvVars(sealed: string | null): Record<string, string> {
  if (!sealed) return {};
  const [, iv, tag, body] = sealed.split('.');
  const decipher = createDecipheriv('aes-256-gcm', key(), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return JSON.parse(Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8'));
}

/** The names, each with the hidden value, as answers show them. */
export function envVarNames(sealed: string | null): Record<string, string> {
  return Object.fromEntries(Object.keys(openEnvVars(sealed)).map((name) => [name, HIDDEN_VALUE]));
}
