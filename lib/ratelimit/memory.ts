import { windowBucket, type LimitResult, type LimitWindow, type RateLimiter, type Slot } from './port';

/**
 * In-process limiter: exact for one instance (the embedded default), a Map lookup per request.
 * Several instances each count on their own; deploy the Upstash adapter for a combined limit.
 */
export class MemoryRateLimiter implements RateLimiter {
  private counters = new Map<string, { bucket: number; count: number; reset: number }>();
  private slots = new Map<string, number>();
  private sweeper: NodeJS.Timeout;

  constructor(private now: () => number = () => Date.now()) {
    // Finished windows are dropped once a minute so the map holds only live identifiers.
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async limit(identifier: string, window: LimitWindow): Promise<LimitResult> {
    const entry = this.entry(identifier, window);
    entry.count += 1;
    return this.result(entry, window);
  }

  async peek(identifier: string, window: LimitWindow): Promise<LimitResult> {
    const result = this.result(this.entry(identifier, window), window);
    return { ...result, success: result.remaining > 0 };
  }

  async acquire(identifier: string, max: number): Promise<Slot | null> {
    const held = this.slots.get(identifier) ?? 0;
    if (held >= max) return null;
    this.slots.set(identifier, held + 1);
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        const left = (this.slots.get(identifier) ?? 1) - 1;
        if (left > 0) this.slots.set(identifier, left);
        else this.slots.delete(identifier);
      },
    };
  }

  private entry(identifier: string, window: LimitWindow) {
    const now = this.now();
    const bucket = windowBucket(now, window.windowMs);
    const key = `${window.windowMs}:${identifier}`;
    let entry = this.counters.get(key);
    if (!entry || entry.bucket !== bucket) {
      entry = { bucket, count: 0, reset: (bucket + 1) * window.windowMs };
      this.counters.set(key, entry);
    }
    return entry;
  }

  private result(entry: { count: number; reset: number }, window: LimitWindow): LimitResult {
    return {
      success: entry.count <= window.limit,
      limit: window.limit,
      remaining: Math.max(0, window.limit - entry.count),
      reset: entry.reset,
    };
  }

  private sweep() {
    const now = this.now();
    for (const [key, entry] of this.counters) if (entry.reset <= now) this.counters.delete(key);
  }
}
