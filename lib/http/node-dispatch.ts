import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { errorFields, log } from '@/lib/core/log';
import { READ_BYTES } from './body';
import { ROUTE_ANSWER, type Answer, type RouteAnswer } from './envelope';
import { routePattern } from './route-pattern';

/**
 * Serves route modules (the `GET`/`POST`/…/`OPTIONS` exports of `app/**\/route.ts`, each a
 * defineRoute declaration or a preflight) straight from a node:http server, without Next's router:
 * the request becomes the web Request a route handler gets under Next; a declared route's answer
 * (status, headers, JSON text: the very answer Next gets as a Response) is written with one
 * `writeHead` and one `end`, any other handler's Response as it is. Nothing of the route's rules
 * lives here — authentication, tenant, limits, parsing, CORS, request id, envelope and usage stay
 * in the declaration's pipeline.
 *
 * A request this table does not hold exactly (another path, a trailing slash, a method the module
 * does not export, HEAD) is not answered here: `dispatch` returns false and the caller hands it to
 * Next, which answers it as it always did.
 */
export interface NodeRoute {
  /** The route's path as the route manifest spells it: `/api/visitors/session/{session_id}/end`. */
  path: string;
  module: Record<string, unknown>;
}

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response> | Response;

interface Compiled {
  segments: ({ param: string } | string)[];
  module: Record<string, unknown>;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function compile(route: NodeRoute): Compiled {
  const segments = route.path
    .split('/')
    .slice(1)
    .map((s) => (s.startsWith('{') && s.endsWith('}') ? { param: s.slice(1, -1) } : s));
  return { segments, module: route.module };
}

/**
 * Next's precedence among routes a path could reach: at the first segment where two differ, a
 * static segment wins over a dynamic one (`/api/workflow/webhook` before `/api/workflow/{name}`).
 */
function bySpecificity(a: Compiled, b: Compiled): number {
  // Only paths of as many segments compete; grouping by length keeps the order total.
  if (a.segments.length !== b.segments.length) return a.segments.length - b.segments.length;
  for (let i = 0; i < a.segments.length; i++) {
    const staticA = typeof a.segments[i] === 'string';
    if (staticA !== (typeof b.segments[i] === 'string')) return staticA ? -1 : 1;
  }
  return 0;
}

/** The routes as the dispatcher tries them: compiled, the most specific first. */
const compileAll = (routes: NodeRoute[]) => routes.map(compile).sort(bySpecificity);

/** The module and decoded path params for `pathname`, or undefined (also for a segment that does not decode). */
function match(routes: Compiled[], pathname: string): { module: Record<string, unknown>; params: Record<string, string> } | undefined {
  const parts = pathname.split('/').slice(1);
  next: for (const route of routes) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    for (const [i, segment] of route.segments.entries()) {
      const part = parts[i];
      if (typeof segment === 'string') {
        if (segment !== part) continue next;
      } else {
        if (!part) continue next;
        try {
          params[segment.param] = decodeURIComponent(part);
        } catch {
          return undefined;
        }
      }
    }
    return { module: route.module, params };
  }
  return undefined;
}

/**
 * The request's headers as the web `Headers` of a Request read them — names case-insensitive,
 * repeated values joined by ", " — straight from node's parsed header object, without a copy.
 * Read-only: nothing in a route writes to its request's headers.
 */
class NodeHeaders {
  constructor(private readonly raw: IncomingHttpHeaders) {}
  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }
  has(name: string): boolean {
    return this.raw[name.toLowerCase()] !== undefined;
  }
  getSetCookie(): string[] {
    const value = this.raw['set-cookie'];
    return value === undefined ? [] : Array.isArray(value) ? value : [value];
  }
  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.raw).sort()) {
      const value = this.get(name);
      if (value !== null) yield [name, value];
    }
  }
  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }
  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }
  forEach(callback: (value: string, name: string, parent: Headers) => void): void {
    for (const [name, value] of this.entries()) callback(value, name, this as unknown as Headers);
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
  set(): never {
    throw new TypeError('immutable');
  }
  append(): never {
    throw new TypeError('immutable');
  }
  delete(): never {
    throw new TypeError('immutable');
  }
}

/**
 * What a route reads of its web Request (method, url, headers, signal, body), over the node
 * request without building one: no header copy, no abort controller unless the signal is read,
 * and the body handed to the body reader (./body.ts) as bytes, or as a web stream only to a
 * reader that asks for `body`.
 */
class NodeRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: NodeHeaders;
  #signal?: AbortSignal;
  #body: ReadableStream<Uint8Array> | null | undefined;
  #consumed = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    pathAndQuery: string,
  ) {
    this.method = req.method ?? 'GET';
    this.url = `http://${hostOf(req)}${pathAndQuery}`;
    this.headers = new NodeHeaders(req.headers);
  }

  /** Aborts when the client goes away before the answer is written, as under Next. */
  get signal(): AbortSignal {
    if (!this.#signal) {
      const aborted = new AbortController();
      this.#signal = aborted.signal;
      if (this.res.closed) {
        if (!this.res.writableFinished) aborted.abort();
      } else
        this.res.once('close', () => {
          if (!this.res.writableFinished) aborted.abort();
        });
    }
    return this.#signal;
  }

  /** The body as a web stream (for a reader other than ./body.ts); it and the bytes reader exclude each other. */
  get body(): ReadableStream<Uint8Array> | null {
    if (this.#body === undefined) {
      this.#body = BODY_METHODS.has(this.method) && !this.#consumed ? bodyOf(this.req) : null;
      this.#consumed = true;
    }
    return this.#body;
  }

  text(): Promise<string> {
    return new Response(this.body).text();
  }

  json(): Promise<unknown> {
    return new Response(this.body).json();
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return new Response(this.body).arrayBuffer();
  }

  [READ_BYTES](maxBytes: number): Promise<Buffer | null> {
    if (this.#consumed) return Promise.reject(new TypeError('Body already read'));
    this.#consumed = true;
    this.#body = null;
    return BODY_METHODS.has(this.method) ? bytesOf(this.req, maxBytes) : Promise.resolve(Buffer.alloc(0));
  }
}

/**
 * The whole body, or null once more than `maxBytes` arrived (the rest stays unread: `drain`
 * drops it after the answer). Rejects when the client goes away mid-body.
 */
function bytesOf(req: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        done();
        req.pause();
        resolve(null);
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    const onClose = () => {
      done();
      reject(new Error('request closed before its body ended'));
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onError);
    req.once('close', onClose);
  });
}

/**
 * The request body as a web stream, read as the route reads it (backpressure: the socket pauses
 * while the route has not asked for more). A route that stops early (a body over its size cap)
 * cancels it: the rest is read and dropped, so the connection stays usable for the next request.
 */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on('data', (chunk: Buffer) => {
        if (done) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.once('end', () => {
        if (!done) controller.close();
        done = true;
      });
      req.once('error', (error) => {
        if (!done) controller.error(error);
        done = true;
      });
    },
    pull() {
      req.resume();
    },
    cancel() {
      done = true;
      req.resume();
    },
  });
}

/** Whatever of the body the route did not read is read and dropped (keep-alive: the next request follows it). */
function drain(req: IncomingMessage): void {
  if (req.readableEnded) return;
  req.removeAllListeners('data');
  req.on('data', () => undefined);
  req.resume();
}

/** The request's Host when it is a plain host[:port] (the URL's origin is not read by routes); else localhost. */
function hostOf(req: IncomingMessage): string {
  const host = req.headers.host;
  return host && /^[A-Za-z0-9.\-:[\]]{1,255}$/.test(host) ? host : 'localhost';
}

/** An answer of a declared route: status and headers in one `writeHead`, the body with its length, in one write. */
function writeAnswer(res: ServerResponse, answer: Answer): void {
  const headers = answer.headers.flat();
  headers.push('content-length', String(Buffer.byteLength(answer.body)));
  res.writeHead(answer.status, headers);
  res.end(answer.body);
}

async function write(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  const cookies = response.headers.getSetCookie();
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  if (cookies.length) res.setHeader('set-cookie', cookies);
  if (!response.body) res.end();
  else res.end(Buffer.from(await response.arrayBuffer()));
}

/** The route of `routes` that answers `pathname` (as the dispatcher picks it), with its decoded params. */
export function routeOf(routes: NodeRoute[], pathname: string): { module: Record<string, unknown>; params: Record<string, string> } | undefined {
  return match(compileAll(routes), pathname);
}

/**
 * A dispatcher over `routes`: `dispatch(req, res)` answers the request and returns true when it
 * is one of theirs, else returns false without touching either.
 */
export function nodeDispatcher(routes: NodeRoute[]): (req: IncomingMessage, res: ServerResponse) => boolean {
  const compiled = compileAll(routes);
  return (req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    const found = match(compiled, pathname);
    if (!found) return false;
    const handler = found.module[req.method ?? ''];
    if (typeof handler !== 'function' || req.method === 'HEAD') return false;
    void (async () => {
      try {
        // The client going away aborts the request's signal, as under Next (the pipeline releases what it holds).
        const request = new NodeRequest(req, res, url) as unknown as Request;
        // A declared route's answer is written as it is; any other handler's (a preflight, t.js) is a web Response.
        const answer = (handler as { [ROUTE_ANSWER]?: RouteAnswer })[ROUTE_ANSWER];
        const response = answer
          ? await answer(request, found.params)
          : await (handler as Handler)(request, { params: Promise.resolve(found.params) });
        if (response instanceof Response) await write(res, response);
        else writeAnswer(res, response);
        drain(req);
      } catch (error) {
        // Declared routes answer their own errors; this is what Next does with one that escapes.
        log.error('route handler failed', { method: req.method, route: routePattern(pathname, found.params), ...errorFields(error) });
        if (!res.headersSent) res.statusCode = 500;
        res.end();
        drain(req);
      }
    })();
    return true;
  };
}
