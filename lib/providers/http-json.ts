import { ApiError } from '@/lib/core/errors';

/**
 * The one HTTP client of the provider adapters (people data, venues): a JSON request with a
 * timeout, and the provider's failures mapped to our codes without passing on anything the
 * provider said — unreachable, timed out, an error status or an unreadable body → 502
 * PROVIDER_ERROR (`details.provider_status` when it answered); 429 → 429 RATE_LIMITED with the
 * provider's Retry-After (seconds) passed on.
 */
export interface ProviderRequest {
  /** Human name for messages, e.g. "people-data provider". */
  provider: string;
  method?: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  /** JSON-encoded as the request body. */
  body?: unknown;
  timeoutMs: number;
}

const DEFAULT_RETRY_AFTER_SECONDS = 30;

/** Retry-After as seconds: an integer, or an HTTP date turned into the seconds until it. */
export function retryAfterSeconds(value: string | null, nowMs = Date.now()): number {
  if (!value) return DEFAULT_RETRY_AFTER_SECONDS;
  const trimmed = value.trim();
  if (/^\d{1,7}$/.test(trimmed)) return Math.max(1, Number(trimmed));
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return DEFAULT_RETRY_AFTER_SECONDS;
  return Math.max(1, Math.ceil((at - nowMs) / 1000));
}

export async function providerJson(req: ProviderRequest): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(req.url, {
      method: req.method ?? 'GET',
      headers: {
        accept: 'application/json',
        ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...req.headers,
      },
      body: req.body !== undefined ? JSON.stringify(req.body) : undefined,
      signal: AbortSignal.timeout(req.timeoutMs),
      redirect: 'error',
    });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new ApiError(
      'PROVIDER_ERROR',
      timedOut ? `The ${req.provider} did not answer within ${req.timeoutMs} ms` : `The ${req.provider} could not be reached`,
    );
  }
  if (res.status === 429) {
    await res.body?.cancel().catch(() => undefined);
    const seconds = retryAfterSeconds(res.headers.get('retry-after'));
    throw new ApiError(
      'RATE_LIMITED',
      `The ${req.provider} is limiting requests; retry in ${seconds} s`,
      { retry_after: seconds, source: 'provider' },
      { 'retry-after': String(seconds) },
    );
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new ApiError('PROVIDER_ERROR', `The ${req.provider} answered ${res.status}`, { provider_status: res.status });
  }
  try {
    return await res.json();
  } catch {
    throw new ApiError('PROVIDER_ERROR', `The ${req.provider} sent an unexpected response`);
  }
}

/** Parses a provider answer with `schema`; a mismatch is the provider's fault (502), never ours. */
export function providerShape<T>(
  provider: string,
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
  value: unknown,
): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ApiError('PROVIDER_ERROR', `The ${provider} sent an unexpected response`);
  return parsed.data;
}
