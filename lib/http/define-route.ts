import { z } from 'zod';
import type { Scope } from '@/lib/keys/schema';
import { isInternalRequest, recordKeyUsage } from '@/lib/keys/usage';
import type { Slot } from '@/lib/ratelimit';
import { errorFields, log } from '@/lib/core/log';
import {
  authenticateApiKey,
  authenticateOrigin,
  authenticateSession,
  presentedKey,
  requireScope,
  type AuthPolicy,
  type Principal,
  type PrincipalFor,
} from './authenticate';
import { readBody, type BodyType } from './body';
import { applyCors } from './cors';
import { REQUEST_ID_HEADER, errorResponse, jsonResponse } from './envelope';
import { ApiError, type ErrorCode } from '@/lib/core/errors';
import { enforceRateLimit, policyOf, type RateLimitPolicy } from './rate-limit';
import { requestIdOf } from './request-id';
import { requestedSiteIds, resolveSite } from './tenant';

type AnyObject = z.ZodType<Record<string, unknown>>;

/** Response extras a handler may set: status, headers, envelope `meta`. */
export interface ResponseExtras {
  status?: number;
  headers: Headers;
  meta?: Record<string, unknown>;
}

export interface RouteContext<A extends AuthPolicy, P, Q, B> {
  req: Request;
  requestId: string;
  /** performance.now() when the request reached the route (for processing-time reporting). */
  startedAt: number;
  principal: PrincipalFor<A>;
  /** The tenant: the API key's site, or the site a session user named and owns. */
  siteId: A extends { kind: 'apiKey' } ? string : string | undefined;
  params: P;
  query: Q;
  body: B;
  res: ResponseExtras;
}

export interface RouteDefinition<
  A extends AuthPolicy = AuthPolicy,
  P extends AnyObject | undefined = AnyObject | undefined,
  Q extends AnyObject | undefined = AnyObject | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
> {
  /** OpenAPI summary and grouping. */
  summary: string;
  description?: string;
  tags: string[];
  auth: A;
  params?: P;
  query?: Q;
  body?: B;
  /** How the body is read (default `json`); see BodyType. */
  bodyType?: BodyType;
  /** Body size cap in bytes (default MAX_BODY_BYTES); a function is read per request. */
  maxBodyBytes?: number | (() => number);
  response: R;
  /**
   * `data` (default): `{success, data, meta?}`. `bare`: `{success, ...response}` (e.g. `{success, lead}`).
   * `raw`: the response schema is the whole body (protocols with their own framing, e.g. MCP's JSON-RPC).
   */
  envelope?: 'data' | 'bare' | 'raw';
  /** Success status (default 200). */
  status?: number;
  /** Error codes this route can answer with, beyond the ones every route of its auth kind has. */
  errors?: ErrorCode[];
  /** Limits applied after authentication: `plan` (default for API-key routes), `visitor`, `none` (default otherwise). */
  rateLimit?: RateLimitPolicy;
  /** Code for a `site_id` that is not a UUID (default INVALID_REQUEST). */
  invalidSiteIdCode?: ErrorCode;
  /** Codes for invalid query/body fields other than INVALID_REQUEST, by top-level field (e.g. `limit` → INVALID_LIMIT). */
  fieldErrorCodes?: Partial<Record<string, ErrorCode>>;
  /** Errors repeat their `code` at the top level of the body (spec §7, workflow start). */
  topLevelErrorCode?: boolean;
  handler: (
    ctx: RouteContext<A, Infer<P>, Infer<Q>, B extends z.ZodType ? z.infer<B> : undefined>,
  ) => Promise<z.input<R>> | z.input<R>;
}

type Infer<T> = T extends z.ZodType ? z.infer<T> : Record<string, never>;

/** What the OpenAPI document reads of a route: its declaration without the handler. */
export type RouteDoc = Omit<RouteDefinition, 'handler'>;

type NextHandler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
export type RouteHandler = NextHandler & { definition: RouteDoc };

/**
 * A route that speaks another protocol and handles its Request itself (e.g. the MCP server's
 * JSON-RPC); `doc` documents it in OpenAPI like any declared route.
 */
export function documentedRoute(doc: RouteDoc, handle: NextHandler): RouteHandler {
  return Object.assign(handle, { definition: doc });
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The scope a route needs: its declared scope, else read for GET/HEAD and write otherwise. */
export function requiredScope(policy: AuthPolicy, method: string): Scope | undefined {
  if (policy.kind !== 'apiKey') return undefined;
  return policy.scope ?? (method === 'GET' || method === 'HEAD' ? 'read' : 'write');
}

/** The request's raw parts, read once: path params, query and JSON body (before validation). */
interface RawRequest {
  params: Record<string, unknown>;
  query: Record<string, string>;
  body: () => Promise<unknown>;
}

async function authenticate(policy: AuthPolicy, req: Request, raw: RawRequest): Promise<Principal> {
  if (policy.kind === 'apiKey') {
    const origin = req.headers.get('origin');
    if (policy.browserOrigin && origin && !presentedKey(req, policy.headers)) {
      return authenticateOrigin(origin, requestedSiteIds(raw.params, raw.query, await raw.body()));
    }
    const principal = await authenticateApiKey(req, policy.headers);
    requireScope(principal, requiredScope(policy, req.method)!);
    return principal;
  }
  if (policy.kind === 'session') return authenticateSession(req);
  return { kind: 'public' };
}

function parse<T extends z.ZodType>(schema: T, value: unknown, where: string, fieldCodes?: Partial<Record<string, ErrorCode>>): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ path: [where, ...i.path].join('.'), message: i.message }));
  const special = result.error.issues.map((i) => fieldCodes?.[String(i.path[0])]).find(Boolean);
  throw new ApiError(special ?? 'INVALID_REQUEST', `Invalid ${where}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, { issues });
}

/**
 * Declares one endpoint. The returned function is the Next route handler; `definition` feeds
 * the OpenAPI document. Steps, in order: request id → authenticate (+ scope) → read body →
 * tenant (`site_id` must be the credential's site) → rate limit (a concurrency slot is held until
 * the response is built or the client goes away) → validate params/query/body → handler →
 * serialize through the response schema → envelope → key usage record.
 */
export function defineRoute<
  A extends AuthPolicy,
  P extends AnyObject | undefined = undefined,
  Q extends AnyObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
>(definition: RouteDefinition<A, P, Q, B, R>): RouteHandler {
  const route = async (req: Request, nextCtx: { params: Promise<Record<string, string | string[]>> }) => {
    const startedAt = performance.now();
    const requestId = requestIdOf(req);
    const url = new URL(req.url);
    const headers = new Headers({ [REQUEST_ID_HEADER]: requestId });
    let principal: Principal | undefined;
    let response: Response;
    let slot: Slot | undefined;
    // Not awaited: the response does not wait for the store to hear about the release.
    const releaseSlot = () => void slot?.release();
    try {
      let bodyRead: Promise<unknown> | undefined;
      const raw: RawRequest = {
        params: (await nextCtx?.params) ?? {},
        query: Object.fromEntries(url.searchParams),
        body: () => (bodyRead ??= definition.body && BODY_METHODS.has(req.method) ? readBody(req, definition.bodyType ?? 'json', maxBytesOf(definition)) : Promise.resolve(undefined)),
      };
      principal = await authenticate(definition.auth, req, raw);
      if (principal.kind === 'origin') applyCors(headers, principal.origin);
      const rawBody = await raw.body();
      const siteId = await resolveSite(principal, requestedSiteIds(raw.params, raw.query, rawBody), definition.invalidSiteIdCode);
      slot = await enforceRateLimit(policyOf(definition.rateLimit, definition.auth.kind), principal, req, headers);
      if (slot) req.signal?.addEventListener('abort', releaseSlot, { once: true });
      const res: ResponseExtras = { headers };
      const ctx = {
        req,
        requestId,
        startedAt,
        principal,
        siteId,
        params: definition.params ? parse(definition.params, raw.params, 'path') : {},
        query: definition.query ? parse(definition.query, raw.query, 'query', definition.fieldErrorCodes) : {},
        body: definition.body ? parse(definition.body, rawBody ?? {}, 'body', definition.fieldErrorCodes) : undefined,
        res,
      } as unknown as Parameters<typeof definition.handler>[0];
      const output = definition.response.parse(await definition.handler(ctx));
      const body =
        definition.envelope === 'raw'
          ? output
          : definition.envelope === 'bare'
          ? { success: true, ...(output as object), ...(res.meta ? { meta: res.meta } : {}) }
          : { success: true, data: output, ...(res.meta ? { meta: res.meta } : {}) };
      response = jsonResponse(body, res.status ?? definition.status ?? 200, headers);
    } catch (error) {
      response = errorResponse(toApiError(error, req, requestId), requestId, headers, definition.topLevelErrorCode);
    } finally {
      releaseSlot();
      if (slot) req.signal?.removeEventListener('abort', releaseSlot);
    }
    if (principal?.kind === 'apiKey' && !isInternalRequest(req)) {
      // Recorded after the response is built; written in batches off the request path.
      recordKeyUsage({
        keyId: principal.keyId,
        siteId: principal.siteId,
        method: req.method,
        route: url.pathname,
        status: response.status,
        at: new Date(),
      });
    }
    return response;
  };
  return Object.assign(route, { definition: definition as unknown as RouteDoc });
}

function maxBytesOf(definition: RouteDefinition): number | undefined {
  const cap = definition.maxBodyBytes;
  return typeof cap === 'function' ? cap() : cap;
}

function toApiError(error: unknown, req: Request, requestId: string): ApiError {
  if (error instanceof ApiError) return error;
  log.error('unhandled error', { request_id: requestId, method: req.method, path: new URL(req.url).pathname, ...errorFields(error) });
  return new ApiError('SYSTEM_ERROR', 'Internal server error');
}
