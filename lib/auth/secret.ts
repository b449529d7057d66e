import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { config } from '@/lib/core/config';
import { processState } from '@/lib/core/process-state';

/**
 * The session signing secret: AUTH_SECRET when set; otherwise one generated on first start and
 * kept (mode 0600) under DATA_DIR, so the embedded defaults work without any setup and
 * sessions survive restarts. Deployments with several instances must set AUTH_SECRET.
 */
const secret = processState<{ value?: string }>('auth.secret', () => ({}));

export function authSecret(): string {
  if (secret.value) return secret.value;
  const c = config();
  if (c.AUTH_SECRET) return (secret.value = c.AUTH_SECRET);
  const file = path.resolve(/*turbopackIgnore: true*/ c.DATA_DIR, 'auth-secret');
  try {
    secret.value = readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    const generated = randomBytes(32).toString('base64url');
    try {
      writeFileSync(file, generated, { mode: 0o600, flag: 'wx' });
      secret.value = generated;
    } catch {
      secret.value = readFileSync(file, 'utf8').trim(); // another process wrote it first
    }
  }
  return secret.value;
}
