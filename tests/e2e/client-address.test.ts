import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './ports';
import { ensureBuilt, startServer, type RunningServer } from './server';

/**
 * The client address behind per-IP limits, over real HTTP against `npm start`'s server entry
 * (server.mjs). The limit used is the token route's attempts per client IP, lowered to 3 a
 * minute; each attempt names another unknown account, so only the per-IP limit can refuse it.
 */
const PER_IP = 3;

let attempt = 0;
async function tokenAttempt(server: RunningServer, headers: Record<string, string>): Promise<number> {
  const res = await fetch(`${server.url}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email: `nobody-${attempt++}@example.com`, password: 'not the password at all' }),
  });
  await res.arrayBuffer();
  return res.status;
}

/** Limits count in fixed windows aligned to the clock minute: a sequence must not straddle two. */
async function freshWindow(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 20_000) await new Promise((r) => setTimeout(r, left + 200));
}

async function attempts(server: RunningServer, headersOf: (i: number) => Record<string, string>, count: number): Promise<number[]> {
  await freshWindow();
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push(await tokenAttempt(server, headersOf(i)));
  return statuses;
}

const env = (trustProxy: number) => ({ RATE_LIMIT_BACKEND: 'memory', AUTH_RATE_LIMIT_PER_IP: String(PER_IP), TRUST_PROXY: String(trustProxy) });

describe('client address on npm start', () => {
  let direct: RunningServer;
  let proxied: RunningServer;

  beforeAll(async () => {
    ensureBuilt();
    direct = await startServer(await freePort(), env(0), 'server-trust-proxy-0');
    proxied = await startServer(await freePort(), env(1), 'server-trust-proxy-1');
  }, 600_000);

  afterAll(async () => {
    await Promise.all([direct?.stop(), proxied?.stop()]);
  });

  it('TRUST_PROXY=0: a client cannot pick its per-IP bucket with X-Forwarded-For, X-Real-IP or Forwarded', async () => {
    const spoofed = (i: number) => ({
      'x-forwarded-for': `203.0.113.${i + 1}`,
      'x-real-ip': `198.51.100.${i + 1}`,
      forwarded: `for=192.0.2.${i + 1}`,
    });
    // Every attempt claims another address; all of them come from this test's socket.
    expect(await attempts(direct, spoofed, PER_IP + 2)).toEqual([401, 401, 401, 429, 429]);
  });

  it('TRUST_PROXY=1: the entry the proxy appended is the client, whatever the client put before it', async () => {
    // One proxy that appends the address it received from: the client's own claims stay on the left.
    const viaProxy = (client: string) => (i: number) => ({ 'x-forwarded-for': `10.9.${i}.1, ${client}` });
    expect(await attempts(proxied, viaProxy('203.0.113.7'), PER_IP + 1)).toEqual([401, 401, 401, 429]);
    // Another client behind the same proxy (same socket address) has its own bucket.
    expect(await attempts(proxied, viaProxy('203.0.113.8'), 1)).toEqual([401]);
  });
});
