import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { GET as meRoute } from '@/app/api/auth/me/route';
import { POST as signupRoute } from '@/app/api/auth/signup/route';
import { POST as tokenRoute } from '@/app/api/auth/token/route';
import { POST as createKeyRoute } from '@/app/api/keys/route';
import { POST as startSessionRoute } from '@/app/api/visitors/session/route';
import { POST as createSiteRoute } from '@/app/api/visitors/sites/route';
import { getDb } from '@/lib/db/client';
import type { RouteHandler } from '@/lib/http/define-route';

export const BASE = 'http://localhost:3000';

export interface CallOptions {
  method?: string;
  path: string;
  params?: Record<string, string>;
  /** A list is a repeated parameter (`filter=a&filter=b`). */
  query?: Record<string, string | number | string[] | undefined>;
  headers?: Record<string, string>;
  /** JSON-encoded unless `rawBody` or `form` is given; a FormData is sent as multipart. */
  body?: unknown;
  rawBody?: string;
  /** A multipart/form-data body (the boundary header is set by the request). */
  form?: FormData;
  /** Aborting it stands for the client going away mid-request. */
  signal?: AbortSignal;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * `TEST_HTTP_PATH=fast`: a call to a route of the server entry's ingestion fast path goes over
 * HTTP to an in-process node:http server running that dispatcher (scripts/fast-path.ts) instead
 * of straight to the handler, so the suites run on both dispatchers of the same declarations.
 */
const FAST = process.env.TEST_HTTP_PATH === 'fast';
/** This run sends the fast path's routes over HTTP through its dispatcher (the `fast-path` project). */
export const OVER_FAST_PATH = FAST;

/**
 * Under `TEST_HTTP_PATH=fast` (the `fast-path` project), whether a suite's operation (its path
 * pattern, `/api/visitors/session/{session_id}/end`) is one the fast path serves: the suites that
 * walk every route (hostile input) run only those again; the others answer there as in `pglite`.
 */
export function runsHere(pathPattern: string): boolean {
  if (!FAST) return true;
  fastPatterns ??= new Set(
    (JSON.parse(readFileSync('lib/http/route-table.json', 'utf8')) as { routes: { path: string; fast_path?: true }[] }).routes
      .filter((r) => r.fast_path)
      .map((r) => r.path),
  );
  return fastPatterns.has(pathPattern);
}
let fastPatterns: Set<string> | undefined;
let fastServer: Promise<{ base: string; serves: (handler: unknown, path: string) => boolean }> | undefined;

function startFastServer() {
  return (fastServer ??= (async () => {
    const http = await import('node:http');
    const { FAST_ROUTES, dispatch } = await import('@/scripts/fast-path');
    const { routeOf } = await import('@/lib/http/node-dispatch');
    const server = http.createServer((req, res) => {
      if (dispatch(req, res)) return;
      res.statusCode = 599; // not the fast path's: the suite asked for a route it does not serve
      res.end();
    });
    server.unref();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as import('node:net').AddressInfo;
    // A call whose path the server routes to another module (a suite calling the start route for
    // the `webhook` workflow, whose path is the change-event route's) goes to its handler directly.
    const serves = (handler: unknown, path: string) => {
      const routed = routeOf(FAST_ROUTES, new URL(path, BASE).pathname)?.module;
      return routed !== undefined && Object.values(routed).includes(handler);
    };
    return { base: `http://127.0.0.1:${port}`, serves };
  })());
}

function filledPath(pattern: string, params: Record<string, string> = {}): string | undefined {
  try {
    return pattern.replace(/\{(\w+)\}/g, (placeholder, name: string) =>
      params[name] === undefined ? placeholder : encodeURIComponent(params[name]),
    );
  } catch {
    return undefined;
  }
}

/** Calls a route handler in-process, exactly as Next would (or through the fast path: TEST_HTTP_PATH=fast). */
export async function call<T = any>(handler: RouteHandler | ((req: Request, ctx: any) => Promise<Response>), o: CallOptions): Promise<CallResult<T>> {
  const fast = FAST ? await startFastServer() : undefined;
  // A header value with control characters cannot travel over HTTP/1.1 (Node's parser refuses the
  // request before any dispatcher sees it): such a call goes to the handler directly.
  const transmittable = !Object.values(o.headers ?? {}).some((v) => /[\x00-\x08\x0a-\x1f\x7f]/.test(v));
  // Over HTTP the route reads its params from the path: a path given as its pattern (`{session_id}`)
  // gets them filled in. A param that cannot be percent-encoded (a lone surrogate) goes to the handler.
  const path = fast?.serves(handler, o.path) && transmittable ? filledPath(o.path, o.params) : undefined;
  const overHttp = path !== undefined;
  const url = new URL(path ?? o.path, overHttp ? fast!.base : BASE);
  for (const [k, v] of Object.entries(o.query ?? {})) for (const one of v === undefined ? [] : [v].flat()) url.searchParams.append(k, String(one));
  const headers = new Headers(o.headers);
  let body: string | FormData | undefined = o.form ?? o.rawBody;
  if (o.body instanceof FormData) body = o.body;
  else if (body === undefined && o.body !== undefined) {
    body = JSON.stringify(o.body);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  const req = new Request(url, { method: o.method ?? 'GET', headers, body, signal: o.signal });
  const res = url.origin === BASE ? await handler(req, { params: Promise.resolve(o.params ?? {}) }) : await fetch(req);
  if (res.status === 599) throw new Error(`the fast path does not serve ${o.method ?? 'GET'} ${o.path}`);
  // A download is answered as its bytes (a zip) or its text (a CSV); everything else is the JSON envelope.
  const bytes = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get('content-type') ?? '';
  const binary = /^application\/(zip|octet-stream)/.test(type);
  const file = /^text\/csv\b/.test(type);
  const text = binary ? '' : bytes.toString('utf8');
  const result = { status: res.status, headers: res.headers, body: binary ? bytes : file ? text : text ? JSON.parse(text) : undefined };
  if (process.env.OPENAPI_EXAMPLES_DIR && 'definition' in handler && !binary) await recordExample(handler, o, result);
  return result;
}

/**
 * `npm run openapi:examples` runs the suites with OPENAPI_EXAMPLES_DIR set: every JSON call a
 * suite makes through `call` is kept (route, request, answer) for the document's examples.
 */
async function recordExample(handler: RouteHandler, o: CallOptions, result: CallResult) {
  const { routeManifest } = await import('@/app/api/openapi.json/manifest');
  const { operationsOf } = await import('@/lib/http/openapi');
  const { appendFileSync } = await import('node:fs');
  const op = operationsOf(routeManifest).find(({ path, method }) => routeManifest.find((r) => r.path === path)?.module[method] === handler);
  if (!op || o.form || o.rawBody !== undefined || o.body instanceof FormData) return;
  const record = {
    method: op.method,
    path: op.path,
    params: o.params,
    query: o.query,
    request: o.body,
    status: result.status,
    response: result.body,
  };
  appendFileSync(`${process.env.OPENAPI_EXAMPLES_DIR}/${process.pid}.jsonl`, JSON.stringify(record) + '\n');
}

/**
 * A request to the site's console API, `/api/sites/{site_id}/<rest>`, signed in as the site's owner
 * (or with `o.headers`, e.g. another owner's); `o.params` adds to the `site_id` param.
 */
export function ownerCall<T = any>(
  handler: Parameters<typeof call>[0],
  t: { siteId: string; user: { auth: Record<string, string> } },
  rest: string,
  o: Omit<CallOptions, 'path'> = {},
): Promise<CallResult<T>> {
  return call<T>(handler, {
    ...o,
    path: `/api/sites/${t.siteId}/${rest}`,
    params: { site_id: t.siteId, ...o.params },
    headers: o.headers ?? t.user.auth,
  });
}

export const uniqueEmail = () => `user-${randomBytes(6).toString('hex')}@example.com`;
export const PASSWORD = 'correct horse battery';

export interface TestUser {
  id: string;
  email: string;
  token: string;
  auth: Record<string, string>;
}

export async function createUser(): Promise<TestUser> {
  const email = uniqueEmail();
  const signup = await call(signupRoute, { method: 'POST', path: '/api/auth/signup', body: { email, password: PASSWORD } });
  if (signup.status !== 202) throw new Error(`signup failed: ${JSON.stringify(signup.body)}`);
  const token = await call(tokenRoute, { method: 'POST', path: '/api/auth/token', body: { email, password: PASSWORD } });
  const auth = { authorization: `Bearer ${token.body.data.token}` };
  const me = await call(meRoute, { path: '/api/auth/me', headers: auth });
  return { id: me.body.data.id, email, token: token.body.data.token, auth };
}

/** Another session token of the user (its own session: ending it leaves the user's others alone). */
export async function newSessionToken(user: Pick<TestUser, 'email'>, password = PASSWORD): Promise<string> {
  const res = await call(tokenRoute, { method: 'POST', path: '/api/auth/token', body: { email: user.email, password } });
  if (res.status !== 200) throw new Error(`token failed: ${JSON.stringify(res.body)}`);
  return res.body.data.token;
}

export async function createSite(user: TestUser, name = 'Test site', domain?: string): Promise<string> {
  const res = await call(createSiteRoute, { method: 'POST', path: '/api/visitors/sites', headers: user.auth, body: { name, domain } });
  if (res.status !== 201) throw new Error(`site creation failed: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

export async function createKey(
  user: TestUser,
  siteId: string,
  scopes: ('read' | 'write')[] = ['read', 'write'],
  extra: Record<string, unknown> = {},
): Promise<{ id: string; apiKey: string }> {
  const res = await call(createKeyRoute, {
    method: 'POST',
    path: '/api/keys',
    headers: user.auth,
    body: { name: 'test key', scopes, site_id: siteId, ...extra },
  });
  if (res.status !== 201) throw new Error(`key creation failed: ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id, apiKey: res.body.data.apiKey };
}

/** A user owning one site, with a read+write key, a read-only key, a revoked and an expired key. */
export interface Tenant {
  user: TestUser;
  siteId: string;
  key: string;
  readKey: string;
  revokedKey: string;
  expiredKey: string;
}

export async function createTenant(): Promise<Tenant> {
  const user = await createUser();
  const siteId = await createSite(user);
  const [key, readKey, revoked, expired] = await Promise.all([
    createKey(user, siteId, ['read', 'write']),
    createKey(user, siteId, ['read']),
    createKey(user, siteId, ['read', 'write']),
    createKey(user, siteId, ['read', 'write']),
  ]);
  const db = await getDb();
  await db.execute(sql`update api_keys set revoked_at = now() where id = ${revoked.id}`);
  await db.execute(sql`update api_keys set expires_at = now() - interval '1 second' where id = ${expired.id}`);
  return { user, siteId, key: key.apiKey, readKey: readKey.apiKey, revokedKey: revoked.apiKey, expiredKey: expired.apiKey };
}

/** A visitor of the tenant's site, created by starting a session through the real route. */
export async function createVisitor(t: Pick<Tenant, 'siteId' | 'key'>): Promise<string> {
  const res = await call(startSessionRoute, {
    method: 'POST',
    path: '/api/visitors/session',
    headers: { 'x-sa-api-key': t.key },
    body: { site_id: t.siteId, fingerprint: `fp-${randomBytes(8).toString('hex')}` },
  });
  if (res.status >= 300) throw new Error(`session start failed: ${JSON.stringify(res.body)}`);
  return res.body.data.visitor_id;
}
