/**
 * The one error type of the API and the one table from code to HTTP status. Handlers and
 * services throw ApiError; anything else that escapes becomes 500 SYSTEM_ERROR.
 */
export const ERROR_STATUS = {
  UNAUTHORIZED: 401,
  /** The password was right and the account has two-factor sign-in: send `otp` (a code or a recovery code). */
  OTP_REQUIRED: 401,
  FORBIDDEN: 403,
  PLAN_LIMIT_REACHED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  INVALID_REQUEST: 400,
  INVALID_SITE_ID: 400,
  INVALID_LIMIT: 400,
  INSUFFICIENT_CREDITS: 402,
  session_not_found: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  SYSTEM_ERROR: 500,
  WORKFLOW_EXECUTION_ERROR: 500,
  WORKFLOW_QUERY_ERROR: 500,
  PROVIDER_ERROR: 502,
  PROVIDER_NOT_CONFIGURED: 503,
  MODEL_NOT_CONFIGURED: 503,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/**
 * Marks ApiErrors process-wide. A production build can hold this module more than once (route
 * bundles, the instrumentation bundle), and a provider built by one copy may throw into code of
 * another: `instanceof ApiError` checks the mark, not the class copy.
 */
const API_ERROR = Symbol.for('sgp.ApiError');

export class ApiError extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as { [API_ERROR]?: true })[API_ERROR] === true;
  }

  readonly [API_ERROR] = true as const;
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Extra response headers, e.g. Retry-After on 429. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (what: string) => new ApiError('NOT_FOUND', `${what} not found`);

/** The value, or a 404 for `what` when it is absent. */
export function found<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw notFound(what);
  return value;
}
