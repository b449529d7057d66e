import { currentDate } from '@/lib/core/clock';
import { ApiError, type ErrorCode } from '@/lib/core/errors';
import { errorFields, log } from '@/lib/core/log';
import type { Principal } from '@/lib/core/principal';
import { isDatabaseUnreachable } from '@/lib/db/errors';
import { recordKeyUsage } from '@/lib/keys/usage';
import { defaultPermission, type Permission } from '@/lib/members/permissions';
import { strategiesOf, strategyOf, type AuthPolicy, type RawRequest } from './auth';
import { readBody, type BodyType } from './body';
import { applyCors } from './cors';
import { AnswerHeaders, REQUEST_ID_HEADER, errorAnswer, jsonAnswer, type Answer } from './envelope';
import { enforceRateLimit, type RateLimitPolicy } from './rate-limit';
import { requestIdOf } from './request-id';
import { routePattern } from './route-pattern';
import { requestedSiteIds, resolveSite } from './tenant';

/**
 * The steps every entry goes through — REST routes (defineRoute), the MCP server and next-auth's
 * endpoints — in this order: begin (request id) → authenticate (+ scope) → tenant → rate limit →
 * parse → handle → serialize/envelope → finish (release, usage record). Each step is a function of
 * its own so an entry that frames its own protocol still runs the same ones.
 */
export interface Exchange {
  req: Request;
  /** The request's path, as `new URL(req.url).pathname` reads it (usage records and logs name it). */
  pathname: string;
  /** Its query string, `?` included; empty without one. */
  search: string;
  requestId: string;
  /** performance.now() when the request reached the route. */
  startedAt: number;
  /** Response headers every answer carries (request id, CORS, X-RateLimit-*). */
  headers: AnswerHeaders;
  /** Path params, once read (logs name the route pattern, never the ids). */
  params?: Record<string, unknown>;
  principal?: Principal;
  /** The route's auth policy, once authentication began (audit trails name the capability). */
  policy?: AuthPolicy;
  /** The code of the error answer, when the answer is one. */
  errorCode?: ErrorCode;
  /** Frees the concurrency slot the rate limit step took, if it took one. */
  release?: () => void;
}

export function begin(req: Request): Exchange {
  const requestId = requestIdOf(req);
  const headers = new AnswerHeaders();
  headers.set(REQUEST_ID_HEADER, requestId);
  return { req, ...pathAndSearch(req.url), requestId, startedAt: performance.now(), headers };
}

// A path the URL parser leaves as it is: no character it encodes, no segment it resolves (`.`, `..`, `%2e`).
const PLAIN_PATH = /^\/[A-Za-z0-9\-_~!$&'()*+,;=:@%/.]*$/;
const DOT_SEGMENT = /\/(?:\.|%2e)/i;

/** The path and query of an absolute request URL, as the URL parser reads them; parsed only when the text alone cannot say. */
function pathAndSearch(url: string): { pathname: string; search: string } {
  const hostStart = url.indexOf('//') + 2;
  const start = url.indexOf('/', hostStart);
  const q = url.indexOf('?', hostStart);
  if (start !== -1 && (q === -1 || start < q) && !url.includes('#')) {
    const pathname = q === -1 ? url.slice(start) : url.slice(start, q);
    const search = q === -1 ? '' : url.slice(q);
    if (PLAIN_PATH.test(pathname) && !DOT_SEGMENT.test(pathname) && !/\s/.test(search)) return { pathname, search: search.length > 1 ? search : '' };
  }
  const parsed = new URL(url);
  return { pathname: parsed.pathname, search: parsed.search };
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The raw parts of the request; the body is read once, on first use, with its size cap. */
export function rawRequest(ex: Exchange, params: Record<string, unknown>, body?: { type: BodyType; maxBytes?: number }): RawRequest {
  let bodyRead: Promise<unknown> | undefined;
  ex.params = params;
  return {
    params,
    query: ex.search ? Object.fromEntries(new URLSearchParams(ex.search)) : {},
    body: () => (bodyRead ??= body && BODY_METHODS.has(ex.req.method) ? readBody(ex.req, body.type, body.maxBytes) : Promise.resolve(undefined)),
  };
}

/**
 * The first strategy of the policy that applies authenticates the caller (401 otherwise), then
 * authorizes it for the route (403). A refused but valid credential is still the caller: its
 * usage is recorded.
 */
export async function authenticate(ex: Exchange, policy: AuthPolicy, raw: RawRequest): Promise<Principal> {
  const strategy = strategiesOf(policy).find((s) => s.applies(ex.req, policy))!;
  ex.policy = policy;
  const principal = await strategy.authenticate(ex.req, policy, raw);
  ex.principal = principal;
  if (principal.kind === 'origin') applyCors(ex.headers, principal.origin);
  strategy.authorize?.(principal, policy, ex.req.method);
  return principal;
}

/**
 * The site the request acts on: every `site_id` it names must be one the credential may touch,
 * and a session's role there must allow the route's permission (its method's default when it
 * declares none).
 */
export async function authorizeSite(
  ex: Exchange,
  raw: RawRequest,
  permission: Permission | undefined,
  invalidCode?: ErrorCode,
): Promise<string | undefined> {
  const needed = permission ?? defaultPermission(ex.req.method);
  return resolveSite(ex.principal!, requestedSiteIds(raw.params, raw.query, await raw.body()), needed, invalidCode);
}

/** Counts the request; a concurrency slot is held until finish() or until the client goes away. */
export async function limit(ex: Exchange, policy: RateLimitPolicy): Promise<void> {
  const slot = await enforceRateLimit(policy, ex.principal!, ex.req, ex.headers);
  if (!slot) return;
  // Not awaited: the response does not wait for the store to hear about the release.
  ex.release = () => void slot.release();
  ex.req.signal?.addEventListener('abort', ex.release, { once: true });
}

export { parseInput as parse } from '@/lib/core/validate';

/** A JSON answer with the exchange's headers. */
export function respond(ex: Exchange, body: unknown, status: number): Answer {
  return jsonAnswer(body, status, ex.headers);
}

/**
 * Gives a response another protocol built (MCP, next-auth) the exchange's headers. A response
 * built in this process takes them in place, so its body stays the string it was built from; one
 * with immutable headers (e.g. fetched) is wrapped in a copy around its body stream.
 */
export function adopt(ex: Exchange, response: Response): Response {
  try {
    ex.headers.forEach((value, name) => {
      if (!response.headers.has(name)) response.headers.set(name, value);
    });
    return response;
  } catch {
    // Immutable headers: copy below.
  }
  const headers = new Headers(response.headers);
  ex.headers.forEach((value, name) => {
    if (!headers.has(name)) headers.set(name, value);
  });
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** A protocol's own Answer with the exchange's headers (CORS, request id, limits) where it sets none of its own. */
export function adoptAnswer(ex: Exchange, answer: Answer): Answer {
  answer.headers.forEach((value, name) => ex.headers.set(name, value));
  return { status: answer.status, headers: ex.headers, body: answer.body };
}

/** The error envelope; anything but an ApiError is logged with the request id and masked as SYSTEM_ERROR. */
export function fail(ex: Exchange, error: unknown, topLevelCode = false): Answer {
  const route = routePattern(ex.pathname, (ex.params ?? {}) as Record<string, string | string[]>);
  const answer = maskError(error, ex.requestId, { method: ex.req.method, route });
  ex.errorCode = answer.code;
  return errorAnswer(answer, ex.requestId, ex.headers, topLevelCode);
}

/** An ApiError as it is; anything else logged (request id and where, never request data) and masked as SYSTEM_ERROR. */
export function maskError(error: unknown, requestId: string, where: Record<string, string>): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnreachable(error)) {
    log.warn('database unreachable', { request_id: requestId, ...where });
    return new ApiError('SERVICE_UNAVAILABLE', 'The database cannot be reached at the moment; try again shortly', undefined, { 'retry-after': '2' });
  }
  log.error('unhandled error', { request_id: requestId, ...where, ...errorFields(error) });
  return new ApiError('SYSTEM_ERROR', 'Internal server error');
}

/**
 * Releases the concurrency slot, records key usage (batched, off the request path) and, for a
 * credential that keeps an audit trail, writes the call to it before the answer leaves.
 */
export async function finish<A extends Answer | Response>(ex: Exchange, response: A): Promise<A> {
  if (ex.release) {
    ex.release();
    ex.req.signal?.removeEventListener('abort', ex.release);
  }
  if (!ex.principal) return response;
  const strategy = strategyOf(ex.principal);
  const usage = strategy.usage?.(ex.principal);
  if (usage) {
    recordKeyUsage({ ...usage, method: ex.req.method, route: ex.pathname, status: response.status, at: currentDate() });
  }
  if (strategy.audit && ex.policy) {
    await strategy.audit(ex.principal, {
      policy: ex.policy,
      requestId: ex.requestId,
      method: ex.req.method,
      route: ex.pathname,
      status: response.status,
      errorCode: ex.errorCode ?? null,
    });
  }
  return response;
}
