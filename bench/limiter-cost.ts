/**
 * `npx tsx bench/limiter-cost.ts`: the plan limiter's own cost per request, outside any server —
 * one window count plus one concurrency slot taken and released, as defineRoute does for an
 * API-key route. Memory adapter in process; Upstash adapter through the test REST bridge to the
 * Redis at REDIS_URL (a separate process, like a remote store; random key prefix, removed after).
 *   LIMITER_COST_OPS=20000 LIMITER_COST_CONCURRENCY=50 npx tsx bench/limiter-cost.ts
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createInterface } from 'node:readline';
import Redis from 'ioredis';
import { MemoryRateLimiter } from '@/lib/ratelimit/memory';
import type { RateLimiter } from '@/lib/ratelimit/port';
import { UpstashRateLimiter } from '@/lib/ratelimit/upstash';

const OPS = Number(process.env.LIMITER_COST_OPS ?? 20_000);
const CONCURRENCY = Number(process.env.LIMITER_COST_CONCURRENCY ?? 50);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function planCheck(limiter: RateLimiter) {
  const [, slot] = await Promise.all([limiter.limit('plan:bench', { limit: 1e9, windowMs: 60_000 }), limiter.acquire('plan:bench', 1e6)]);
  await slot?.release();
}

async function measure(name: string, limiter: RateLimiter, ops: number) {
  for (let i = 0; i < Math.min(200, ops); i++) await planCheck(limiter); // warm up
  let t = process.hrtime.bigint();
  const sequential = Math.max(1, Math.floor(ops / 10));
  for (let i = 0; i < sequential; i++) await planCheck(limiter);
  const latencyUs = Number(process.hrtime.bigint() - t) / 1000 / sequential;
  t = process.hrtime.bigint();
  let left = ops;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) await planCheck(limiter);
    }),
  );
  const seconds = Number(process.hrtime.bigint() - t) / 1e9;
  console.log(
    `${name.padEnd(8)} sequential ${latencyUs.toFixed(1).padStart(8)} µs/request   ${CONCURRENCY} concurrent ${Math.round(ops / seconds)
      .toString()
      .padStart(8)} requests/s`,
  );
}

async function main() {
  await measure('memory', new MemoryRateLimiter(), OPS * 10);
  const bridge = spawn(path.join('node_modules', '.bin', 'tsx'), ['tests/helpers/upstash-bridge-cli.ts'], {
    env: { ...process.env, REDIS_URL },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const prefix = `sgp-bench-${randomBytes(4).toString('hex')}`;
  try {
    const first = await createInterface({ input: bridge.stdout! })[Symbol.asyncIterator]().next();
    const { url, token } = JSON.parse(first.value as string);
    await measure('upstash', new UpstashRateLimiter({ url, token, prefix }), OPS);
  } finally {
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    bridge.kill('SIGTERM');
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
