/**
 * The rate-limit store behind one small interface. Windows are fixed and aligned to the epoch
 * (`floor(now / windowMs)`), so every instance sharing a store counts in the same buckets.
 */
export interface LimitWindow {
  /** Requests allowed per window. */
  limit: number;
  windowMs: number;
}

export interface LimitResult {
  success: boolean;
  limit: number;
  /** Requests left in the current window (0 once over the limit). */
  remaining: number;
  /** When the current window ends, epoch milliseconds. */
  reset: number;
}

/**
 * A held concurrency slot. `release` is idempotent: call it on every path out of the request.
 * It takes effect locally at once; the promise settles when the store has it (never rejects).
 */
export interface Slot {
  release(): Promise<void>;
}

export interface RateLimiter {
  /** Counts one request against `identifier` and says whether it is within the window's limit. */
  limit(identifier: string, window: LimitWindow): Promise<LimitResult>;
  /** The window's state for `identifier` without counting a request; `success`: the next request would pass. */
  peek(identifier: string, window: LimitWindow): Promise<LimitResult>;
  /** Takes one of `max` concurrent slots of `identifier`, or null when all are taken. */
  acquire(identifier: string, max: number): Promise<Slot | null>;
}

export const windowBucket = (now: number, windowMs: number) => Math.floor(now / windowMs);
