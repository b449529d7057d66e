import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorFields, log } from '@/lib/core/log';
import { routePattern } from './route-pattern';

/**
 * Serves route modules (the `GET`/`POST`/…/`OPTIONS` exports of `app/**\/route.ts`, each a
 * defineRoute declaration or a preflight) straight from a node:http server, without Next's router:
 * the request becomes the web Request a route handler gets under Next, its Response is written
 * back. Nothing of the route's rules lives here — authentication, tenant, limits, parsing, CORS,
 * request id, envelope and usage stay in the declaration's pipeline.
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

function requestOf(req: IncomingMessage, pathAndQuery: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const withBody = BODY_METHODS.has(method);
  return new Request(`http://${hostOf(req)}${pathAndQuery}`, {
    method,
    headers,
    signal,
    ...(withBody ? { body: bodyOf(req), duplex: 'half' } : {}),
  } as RequestInit);
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

async function write(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  const cookies = response.headers.getSetCookie();
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  if (cookies.length) res.setHeader('set-cookie', cookies);
  if (!response.body) {
    res.end();
    return;
  }
  res.end(Buffer.from(await response.arrayBuffer()));
}

/**
 * A dispatcher over `routes`: `dispatch(req, res)` answers the request and returns true when it
 * is one of theirs, else returns false without touching either.
 */
export function nodeDispatcher(routes: NodeRoute[]): (req: IncomingMessage, res: ServerResponse) => boolean {
  const compiled = routes.map(compile);
  return (req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    const found = match(compiled, pathname);
    if (!found) return false;
    const handler = found.module[req.method ?? ''];
    if (typeof handler !== 'function' || req.method === 'HEAD') return false;
    // The client going away aborts the request, as under Next (the pipeline releases what it holds).
    const aborted = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) aborted.abort();
    });
    void (async () => {
      try {
        const response = await (handler as Handler)(requestOf(req, url, aborted.signal), { params: Promise.resolve(found.params) });
        await write(res, response);
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
