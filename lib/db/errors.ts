/** Postgres error codes the repositories map to API errors. Drivers may wrap the original error. */
function pgCode(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}

export const isUniqueViolation = (error: unknown) => pgCode(error) === '23505';
export const isForeignKeyViolation = (error: unknown) => pgCode(error) === '23503';
/** The database broke a lock cycle by aborting this transaction: it can run again. */
export const isDeadlock = (error: unknown) => pgCode(error) === '40P01';

/** Postgres codes of a server that is going away or not accepting connections yet (admin shutdown, starting up, connection failures). */
const UNREACHABLE_CODES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08006']);

/**
 * The database cannot be reached right now: its socket refuses or is gone (the embedded database's
 * holder restarting, a Postgres restart), or the connection dropped under a query. Not a fault of
 * the request: answered 503 with Retry-After.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (let e = error as { code?: unknown; syscall?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    if (typeof e.code === 'string' && UNREACHABLE_CODES.has(e.code)) return true;
    if (e.syscall === 'connect' && (e.code === 'ECONNREFUSED' || e.code === 'ENOENT')) return true;
    if (e.code === 'EPIPE' || e.code === 'ECONNRESET') return true;
    if (typeof e.message === 'string' && /^Connection terminated( unexpectedly)?$/.test(e.message)) return true;
    e = e.cause as typeof e;
  }
  return false;
}
