import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstashRateLimiter } from '@/lib/ratelimit/upstash';
import { startUpstashBridge, type UpstashBridge } from '@/tests/helpers/upstash-bridge';

/**
 * Two app processes sharing the Upstash adapter enforce one combined limit. Runs against the
 * machine's Redis (TEST_REDIS_URL, default redis://127.0.0.1:6379) through the test bridge. Required
 * under CI=true: an unreachable Redis fails the suite there; elsewhere the suite is skipped.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
process.env.LOG_LEVEL ??= 'silent'; // the fail-open case logs a warning by design

async function reachable(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined); // the outcome is the connect() result
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}
const redisUp = await reachable(REDIS_URL);
if (process.env.CI === 'true' && !redisUp) throw new Error(`CI=true requires Redis at ${REDIS_URL} for the shared rate-limit suite`);

const prefix = `sgp-test-${randomBytes(6).toString('hex')}`;
let bridge: UpstashBridge;
let redis: Redis;

beforeAll(async () => {
  if (!redisUp) return;
  bridge = await startUpstashBridge({ redisUrl: REDIS_URL });
  redis = new Redis(REDIS_URL);
});

afterAll(async () => {
  if (!redisUp) return;
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
  await bridge.close();
});

interface Worker {
  child: ChildProcessWithoutNullStreams;
  next(): Promise<string>;
}

function startWorker(env: Record<string, string>): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/helpers/limiter-worker.ts'], {
    env: {
      ...process.env,
      RATE_LIMIT_BACKEND: 'upstash',
      UPSTASH_REDIS_REST_URL: bridge.url,
      UPSTASH_REDIS_REST_TOKEN: bridge.token,
      RATE_LIMIT_PREFIX: prefix,
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return {
    child,
    next: async () => {
      const { value, done } = await lines.next();
      if (done) throw new Error(`worker exited early: ${stderr}`);
      if (stderr) process.stderr.write(`worker stderr: ${stderr}\n`);
      return value as string;
    },
  };
}

async function runTogether(workers: Worker[]): Promise<any[]> {
  for (const w of workers) expect(await w.next()).toBe('ready');
  for (const w of workers) w.child.stdin.write('go\n');
  return Promise.all(workers.map(async (w) => JSON.parse(await w.next())));
}

describe.skipIf(!redisUp)('Upstash adapter shared by two processes', { timeout: 60_000 }, () => {
  it('enforces one combined limit', async () => {
    const env = { WORKER_MODE: 'limit', WORKER_IDENTIFIER: 'plan:combined', WORKER_REQUESTS: '40', WORKER_LIMIT: '50' };
    const results = await runTogether([startWorker(env), startWorker(env)]);
    expect(results.reduce((n, r) => n + r.allowed, 0)).toBe(50);
    expect(results.reduce((n, r) => n + r.denied, 0)).toBe(30);
    // A third process sees the window as full.
    const [late] = await runTogether([startWorker({ ...env, WORKER_REQUESTS: '1' })]);
    expect(late).toEqual({ allowed: 0, denied: 1 });
  });

  it('holds one combined concurrency cap and frees it on release', async () => {
    const env = { WORKER_MODE: 'acquire', WORKER_IDENTIFIER: 'plan:slots', WORKER_REQUESTS: '4', WORKER_LIMIT: '5' };
    const workers = [startWorker(env), startWorker(env)];
    const taken = await runTogether(workers);
    expect(taken.reduce((n, r) => n + r.acquired, 0)).toBe(5);
    expect(await redis.zcard(`${prefix}:slots:plan:slots`)).toBe(5); // held by both processes at once
    for (const w of workers) w.child.stdin.write('release\n');
    for (const w of workers) expect(JSON.parse(await w.next())).toHaveProperty('released');
    expect(await redis.zcard(`${prefix}:slots:plan:slots`)).toBe(0);
  });

  it('counts, peeks and resets windows through the REST protocol (in this process)', async () => {
    const limiter = new UpstashRateLimiter({ url: bridge.url, token: bridge.token, prefix });
    const window = { limit: 2, windowMs: 86_400_000 };
    expect(await limiter.limit('direct', window)).toMatchObject({ success: true, remaining: 1, limit: 2 });
    expect(await limiter.peek('direct', window)).toMatchObject({ success: true, remaining: 1 });
    expect(await limiter.limit('direct', window)).toMatchObject({ success: true, remaining: 0 });
    const over = await limiter.limit('direct', window);
    expect(over).toMatchObject({ success: false, remaining: 0 });
    expect(over.reset).toBe((Math.floor(Date.now() / window.windowMs) + 1) * window.windowMs);
  });

  it('lets requests through when the store is unreachable (fails open)', async () => {
    const limiter = new UpstashRateLimiter({ url: 'http://127.0.0.1:9', token: 'x', prefix });
    expect(await limiter.limit('down', { limit: 1, windowMs: 60_000 })).toMatchObject({ success: true });
    expect(await limiter.acquire('down', 1)).not.toBeNull();
  });
});
