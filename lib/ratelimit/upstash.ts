import { randomUUID } from 'node:crypto';
import { Ratelimit } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis';
import { errorFields, log } from '@/lib/core/log';
import type { LimitResult, LimitWindow, RateLimiter, Slot } from './port';

/**
 * Shared limiter over Upstash Redis (REST), for serverless and multi-instance deployments: all
 * instances count in the same keys, so a limit holds across them.
 *
 * Windows use `@upstash/ratelimit`'s fixed window, pinned at 2.0.8: from 2.1 its scripts start
 * with a `#!lua flags=...` shebang that Redis 7.0 (and REST bridges in front of it) rejects.
 * Concurrency slots are a sorted set per identifier: member = slot id, score = expiry. A slot is
 * released by the request that took it; the expiry (SLOT_TTL_MS) only frees slots of an instance
 * that died mid-request.
 *
 * When Redis cannot be reached the limiter lets requests through (fails open) and logs a
 * warning: an outage of the limit store must not become an outage of the API.
 */
const SLOT_TTL_MS = 5 * 60_000;
const TIMEOUT_MS = 1_000;

const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

export interface UpstashOptions {
  url: string;
  token: string;
  prefix: string;
}

export class UpstashRateLimiter implements RateLimiter {
  private redis: Redis;
  private windows = new Map<string, Ratelimit>();
  private acquireScript;

  constructor(private options: UpstashOptions) {
    this.redis = new Redis({ url: options.url, token: options.token, retry: { retries: 1, backoff: () => 50 } });
    this.acquireScript = this.redis.createScript<number>(ACQUIRE);
  }

  async limit(identifier: string, window: LimitWindow): Promise<LimitResult> {
    try {
      const { success, limit, remaining, reset } = await this.ratelimit(window).limit(identifier);
      // On its own timeout the library answers success with limit 0: report our limit instead.
      return { success, limit: limit || window.limit, remaining, reset: reset || Date.now() + window.windowMs };
    } catch (error) {
      return this.failOpen(error, window);
    }
  }

  async peek(identifier: string, window: LimitWindow): Promise<LimitResult> {
    try {
      const { remaining, reset } = await this.ratelimit(window).getRemaining(identifier);
      return { success: remaining > 0, limit: window.limit, remaining, reset };
    } catch (error) {
      return this.failOpen(error, window);
    }
  }

  async acquire(identifier: string, max: number): Promise<Slot | null> {
    const key = `${this.options.prefix}:slots:${identifier}`;
    const member = randomUUID();
    try {
      const taken = await this.acquireScript.exec([key], [String(max), String(SLOT_TTL_MS), member]);
      if (!taken) return null;
    } catch (error) {
      log.warn('concurrency store unreachable; request allowed', errorFields(error));
      return { release: async () => undefined };
    }
    let released: Promise<void> | undefined;
    return {
      release: () =>
        (released ??= this.redis.zrem(key, member).then(
          () => undefined,
          (error) => log.warn('concurrency slot not released; it expires on its own', errorFields(error)),
        )),
    };
  }

  private ratelimit(window: LimitWindow): Ratelimit {
    const id = `${window.limit}:${window.windowMs}`;
    let limiter = this.windows.get(id);
    if (!limiter) {
      limiter = new Ratelimit({
        redis: this.redis,
        limiter: Ratelimit.fixedWindow(window.limit, `${window.windowMs} ms`),
        prefix: `${this.options.prefix}:rl:${window.windowMs}`,
        analytics: false,
        timeout: TIMEOUT_MS,
      });
      this.windows.set(id, limiter);
    }
    return limiter;
  }

  private failOpen(error: unknown, window: LimitWindow): LimitResult {
    log.warn('rate-limit store unreachable; request allowed', errorFields(error));
    return { success: true, limit: window.limit, remaining: window.limit, reset: Date.now() + window.windowMs };
  }
}
