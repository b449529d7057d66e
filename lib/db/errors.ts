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
