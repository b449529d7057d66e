import type { z } from 'zod';
import type { ErrorCode } from '@/lib/core/errors';
import type { Permission } from '@/lib/members/permissions';
import type { AuthPolicy, PrincipalFor } from './auth';
import type { BodyType } from './body';
import { ROUTE_ANSWER, toResponse, type Answer, type AnswerHeaders, type RouteAnswer } from './envelope';
import { authenticate, authorizeSite, begin, fail, finish, limit, parse, rawRequest, respond, adopt, adoptAnswer, type Exchange } from './pipeline';
import { policyOf, type RateLimitPolicy } from './rate-limit';

type AnyObject = z.ZodType<Record<string, unknown>>;

/** Response extras a handler may set: status, headers, envelope `meta`. */
export interface ResponseExtras {
  status?: number;
  headers: AnswerHeaders;
  meta?: Record<string, unknown>;
}

export interface RouteContext<A extends AuthPolicy, P, Q, B> {
  req: Request;
  requestId: string;
  /** performance.now() when the request reached the route (for processing-time reporting). */
  startedAt: number;
  principal: PrincipalFor<A>;
  /** The tenant: the API key's site, or the site a session user named and owns. */
  siteId: A extends { kind: 'apiKey' } | { kind: 'platformKey' } ? string : string | undefined;
  params: P;
  query: Q;
  body: B;
  res: ResponseExtras;
}

export interface BodyReading {
  /** How the body is parsed (default `json`); see BodyType. */
  type?: BodyType;
  /** Size cap in bytes (default MAX_BODY_BYTES); a function is read per request. */
  maxBytes?: number | (() => number);
  /**
   * The handler validates the body itself (tool routes: `invokeTool`); it is still read with its
   * size cap and tenant-checked, and `body` documents it.
   */
  checkedByHandler?: boolean;
}

export interface SpecErrors {
  /** Code for a `site_id` that is not a UUID (default INVALID_REQUEST). */
  invalidSiteId?: ErrorCode;
  /** Codes for invalid query/body fields other than INVALID_REQUEST, by top-level field (e.g. `limit` → INVALID_LIMIT). */
  fields?: Partial<Record<string, ErrorCode>>;
  /** Errors repeat their `code` at the top level of the body (spec §7, workflow start). */
  codeAtTopLevel?: boolean;
}

export interface OpenApiExtras {
  /** Other success statuses the handler sets through `res.status`, with the same body, and what each means. */
  alsoSucceeds?: Record<number, string>;
  /**
   * Media types a success answers in, with what each holds: besides the JSON envelope (`text/csv` when the client
   * asks for it) or, with `json: false`, instead of it (an image; a redirect has none), each with what it holds and a
   * textual example (none for a binary one). `description` names the answer.
   */
  successMedia?: { description?: string; json?: false; types?: Record<string, { description: string; example?: string }> };
  /** Other statuses the route answers without a body, with their description. */
  otherResponses?: Record<number, string>;
  /**
   * One operation per value of a path parameter, each with its own body (a workflow per catalog
   * name), instead of one operation over an open body.
   */
  variants?: { param: string; values: { value: string; summary: string; description?: string; body: z.ZodType }[] };
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
  /**
   * What a signed-in member's role must allow on the site the request names (the table in
   * lib/members/permissions.ts); default `site.read` for GET, `settings.manage` otherwise. API
   * keys are not members: their scopes decide.
   */
  permission?: Permission;
  params?: P;
  query?: Q;
  /**
   * The body's schema; or, where the path names what the body is (a workflow per catalog name),
   * a function of the parsed path params answering it (it may throw, e.g. 404 for an unknown
   * name). Such a route documents each value's body through `openapi.variants`.
   */
  body?: B | ((params: Infer<P>) => B);
  /** How the body is read, where it is not JSON checked by `body` up to MAX_BODY_BYTES. */
  bodyReading?: BodyReading;
  response: R;
  /**
   * `data` (default): `{success, data, meta?}`. `bare`: `{success, ...response}` (e.g. `{success, lead}`).
   * `raw`: the response schema is the whole body.
   */
  envelope?: 'data' | 'bare' | 'raw';
  /** Success status (default 200). */
  status?: number;
  /** Error codes this route can answer with, beyond the ones every route of its auth kind has. */
  errors?: ErrorCode[];
  /** Limits applied after authentication: `plan` (default for API-key routes), `visitor`, `none` (default otherwise). */
  rateLimit?: RateLimitPolicy;
  /** Where the specification fixes other error codes or shapes than the house rules. */
  specErrors?: SpecErrors;
  /** What only the OpenAPI document reads. */
  openapi?: OpenApiExtras;
  /**
   * Why the server entry serves this route without Next's router (server.mjs, scripts/fast-path.ts):
   * `npm run routes` lists the routes that say so in scripts/fast-routes.ts, the fast path's only
   * table. Only for the routes called at a rate nobody controls (every tracked page, agents, servers).
   */
  fastPath?: string;
  /**
   * Returns the answer to serialize through `response`, or a Response of its own for an answer in
   * another media type the client asked for (a server-sent event stream); that Response gets the
   * exchange's headers like any other.
   */
  handler: (
    ctx: RouteContext<A, Infer<P>, Infer<Q>, B extends z.ZodType ? z.infer<B> : undefined>,
  ) => Promise<z.input<R> | Response> | z.input<R> | Response;
}

type Infer<T> = T extends z.ZodType ? z.infer<T> : Record<string, never>;

/** What the OpenAPI document reads of a route: its declaration without the handler. */
export type RouteDoc = Omit<RouteDefinition, 'handler'>;

type NextContext = { params: Promise<Record<string, string | string[]>> };
type NextHandler = (req: Request, ctx: NextContext) => Promise<Response>;
/** A route's declared reason to be served on the fast path (`RouteDefinition.fastPath`), read by `npm run routes`. */
export interface FastPathDeclared {
  fastPath?: string;
}

/** The Next route handler, with the declaration it serves and its answer before it becomes a Response. */
export type RouteHandler = NextHandler & FastPathDeclared & { definition: RouteDoc; [ROUTE_ANSWER]: RouteAnswer };

/** The Next route handler of `answer`: the same answer as a web Response. */
function handlerOf(answer: RouteAnswer, definition: RouteDoc): RouteHandler {
  const route = async (req: Request, nextCtx: NextContext) => toResponse(await answer(req, (await nextCtx?.params) ?? {}));
  return Object.assign(route, { definition, fastPath: definition.fastPath, [ROUTE_ANSWER]: answer });
}

/**
 * A handler outside the pipeline (the tag's static script) declared onto the fast path, as
 * `fastPath` declares a route: `export const GET = servedFast('why', () => new Response(…))`.
 */
export const servedFast = <H extends (...args: never[]) => unknown>(why: string, handler: H): H & FastPathDeclared =>
  Object.assign(handler, { fastPath: why });

function maxBytesOf(definition: RouteDoc): number | undefined {
  const cap = definition.bodyReading?.maxBytes;
  return typeof cap === 'function' ? cap() : cap;
}

/**
 * Declares one endpoint. The returned function is the Next route handler; `definition` feeds
 * the OpenAPI document. The steps are the pipeline's (./pipeline.ts), in its order.
 */
export function defineRoute<
  A extends AuthPolicy,
  P extends AnyObject | undefined = undefined,
  Q extends AnyObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
>(definition: RouteDefinition<A, P, Q, B, R>): RouteHandler {
  const limitPolicy = policyOf(definition.rateLimit, definition.auth.kind);
  const answer: RouteAnswer = async (req, params) => {
    const ex = begin(req);
    let response: Answer | Response;
    try {
      const raw = rawRequest(
        ex,
        params,
        definition.body && { type: definition.bodyReading?.type ?? 'json', maxBytes: maxBytesOf(definition as unknown as RouteDoc) },
      );
      const principal = await authenticate(ex, definition.auth, raw);
      const siteId = await authorizeSite(ex, raw, definition.permission, definition.specErrors?.invalidSiteId);
      await limit(ex, limitPolicy);
      const res: ResponseExtras = { headers: ex.headers };
      const pathParams = definition.params ? parse(definition.params, raw.params, 'path') : {};
      const query = definition.query ? parse(definition.query, raw.query, 'query', definition.specErrors?.fields) : {};
      const bodySchema = typeof definition.body === 'function' ? definition.body(pathParams as Infer<P>) : definition.body;
      const ctx = {
        req,
        requestId: ex.requestId,
        startedAt: ex.startedAt,
        principal,
        siteId,
        params: pathParams,
        query,
        body: !bodySchema
          ? undefined
          : definition.bodyReading?.checkedByHandler
            ? await raw.body()
            : parse(bodySchema, (await raw.body()) ?? {}, 'body', definition.specErrors?.fields),
        res,
      } as unknown as Parameters<typeof definition.handler>[0];
      const answer = await definition.handler(ctx);
      response =
        answer instanceof Response
          ? adopt(ex, answer)
          : respond(ex, envelope(definition.envelope, definition.response.parse(answer), res.meta), res.status ?? definition.status ?? 200);
    } catch (error) {
      response = fail(ex, error, definition.specErrors?.codeAtTopLevel);
    }
    return finish(ex, response);
  };
  return handlerOf(answer, definition as unknown as RouteDoc);
}

function envelope(kind: RouteDoc['envelope'], output: unknown, meta?: Record<string, unknown>): unknown {
  if (kind === 'raw') return output;
  if (kind === 'bare') return { success: true, ...(output as object), ...(meta ? { meta } : {}) };
  return { success: true, data: output, ...(meta ? { meta } : {}) };
}

/**
 * An entry that speaks its own protocol over the same steps (MCP's JSON-RPC, next-auth's
 * endpoints): request id, authentication, tenant, rate limit, error masking and usage are the
 * pipeline's; the body is left unread for `handle`, whose Response gets the exchange's headers.
 * `doc` documents it in OpenAPI like a declared route (its body schema is documentation only).
 */
export function defineProtocolRoute(
  doc: RouteDoc,
  handle: (ex: Exchange & { principal: NonNullable<Exchange['principal']> }, params: Record<string, unknown>) => Promise<Answer | Response>,
): RouteHandler {
  const limitPolicy = policyOf(doc.rateLimit, doc.auth.kind);
  const answer: RouteAnswer = async (req, params) => {
    const ex = begin(req);
    let response: Answer | Response;
    try {
      const raw = rawRequest(ex, params);
      await authenticate(ex, doc.auth, raw);
      await authorizeSite(ex, raw, doc.permission, doc.specErrors?.invalidSiteId);
      await limit(ex, limitPolicy);
      const handled = await handle(ex as Exchange & { principal: NonNullable<Exchange['principal']> }, raw.params);
      response = handled instanceof Response ? adopt(ex, handled) : adoptAnswer(ex, handled);
    } catch (error) {
      response = fail(ex, error);
    }
    return finish(ex, response);
  };
  return handlerOf(answer, doc);
}
