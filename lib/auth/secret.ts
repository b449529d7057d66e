import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { config } from '@/lib/core/config';

/**
 * The session signing secret: AUTH_SECRET when set; otherwise one generated on first start and
 * kept (mode 0600) under DATA_DIR, so the embedded defaults work without any setup and
 * sessions survive restarts. Deployments with several instances must set AUTH_SECRET.
 */
let cached: string | undefined;

export function authSecret(): string {
  if (cached) return cached;
  const c = config();
  if (c.AUTH_SECRET) return (cached = c.AUTH_SECRET);
  const file = path.resolve(/*turbopackIgnore: true*/ c.DATA_DIR, 'auth-secret');
  try {
    cached = readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    const secret = randomBytes(32).toString('base64url');
    try {
      writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
      cached = secret;
    } catch {
      cached = readFileSync(file, 'utf8').trim(); // another process wrote it first
    }
  }
  return cached;
}
