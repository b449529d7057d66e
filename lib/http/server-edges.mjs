// Plain JavaScript: the server entry (server.mjs) runs it with `node`, without a TypeScript loader.
import { randomUUID } from 'node:crypto';
import { IncomingMessage } from 'node:http';

/**
 * What the server entry answers itself, before the fast path or Next sees a request, so that both
 * serving paths answer alike at the edges of HTTP:
 *
 * - a request target that is not a path (`OPTIONS *`, `GET *`): 400;
 * - a method no route has (TRACE, CONNECT, PROPFIND…): 405 with `Allow`;
 * - a path that is not valid percent-encoding (`%ff`), anywhere: 400;
 * - an /api path with a dot segment (`/api/visitors/session/../end`): 400 — neither path resolves them;
 * - an /api path no route has: 404 NOT_FOUND; an /api route asked for a method it lacks: 405
 *   with `Allow` (`routeTable`, from lib/http/route-table.json, which `npm run routes` writes).
 *
 * /api answers are the API's error envelope with a request id; other paths get a line of text.
 */

const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];
const KNOWN_METHODS = new Set(METHODS);

// A caller's request id is kept when it is short and printable (as lib/http/request-id.ts keeps it).
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const isApi = (pathname) => pathname === '/api' || pathname.startsWith('/api/');

function pathnameOf(url) {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** A segment that does not decode (`%E0%A4%A`, `%ff`), or undefined. */
function undecodable(segments) {
  for (const segment of segments) {
    if (!segment.includes('%')) continue;
    try {
      decodeURIComponent(segment);
    } catch {
      return segment;
    }
  }
  return undefined;
}

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** Writes a refusal: the error envelope under /api, a line of text elsewhere. Unread body bytes are dropped. */
function refuse(req, res, status, code, message, headers = {}) {
  const api = isApi(pathnameOf(req.url ?? '/'));
  let body;
  const head = { ...headers };
  if (api) {
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && ACCEPTABLE_REQUEST_ID.test(given) ? given : randomUUID();
    body = JSON.stringify({ success: false, error: { code, message, request_id: requestId } });
    head['content-type'] = 'application/json; charset=utf-8';
    head['x-request-id'] = requestId;
  } else {
    body = `${message}\n`;
    head['content-type'] = 'text/plain; charset=utf-8';
  }
  head['content-length'] = Buffer.byteLength(body);
  res.writeHead(status, head);
  res.end(req.method === 'HEAD' ? undefined : body);
  drainBody(req);
  return true;
}

/** Whatever of the body nobody read is read and dropped (its readers let go of it): the next request on the connection is read. */
function drainBody(req) {
  if (req.readableEnded) return;
  req.removeAllListeners('data');
  req.removeAllListeners('readable');
  req.on('data', () => undefined);
  req.resume();
}

/** Answers (and returns true for) a request no route could take: a target, method or path that is malformed. */
export function refuseMalformed(req, res) {
  const url = req.url ?? '/';
  if (!url.startsWith('/')) return refuse(req, res, 400, 'INVALID_REQUEST', 'The request target must be a path');
  if (!KNOWN_METHODS.has(req.method)) {
    return refuse(req, res, 405, 'METHOD_NOT_ALLOWED', `${req.method} is not a method of this server`, { allow: METHODS.join(', ') });
  }
  const pathname = pathnameOf(url);
  const segments = pathname.split('/');
  if (undecodable(segments) !== undefined) return refuse(req, res, 400, 'INVALID_REQUEST', 'The request path is not valid percent-encoding');
  if (isApi(pathname) && segments.some((s) => DOT_SEGMENT.test(s))) {
    return refuse(req, res, 400, 'INVALID_REQUEST', 'The request path must not contain "." or ".." segments');
  }
  return false;
}

/** Orders patterns as Next picks among routes that match a path: static segments before parameters before catch-alls. */
function specificity(route) {
  return route.segments.map((s) => (s.startsWith('{') ? (route.catch_all && s === route.segments.at(-1) ? 2 : 1) : 0));
}

function compare(a, b) {
  const [x, y] = [specificity(a), specificity(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return y.length - x.length;
}

function matches(route, segments) {
  const last = route.segments.length - 1;
  if (route.catch_all ? segments.length <= last : segments.length !== route.segments.length) return false;
  for (let i = 0; i <= last; i++) {
    const pattern = route.segments[i];
    if (pattern.startsWith('{')) {
      if (segments[i] === '') return false;
    } else if (pattern !== segments[i]) return false;
  }
  return true;
}

/**
 * The /api routes of `table` (lib/http/route-table.json): `refuseUnrouted(req, res)` answers a path
 * none has with 404 and a method its route lacks with 405 (HEAD goes with GET, OPTIONS is every
 * route's), and returns false for a request a route takes.
 */
export function routeTable(table) {
  const routes = table.routes
    .filter((r) => isApi(r.path))
    .map((r) => ({ ...r, segments: r.path.split('/').slice(1) }))
    .sort(compare);
  const routeOf = (pathname) => {
    // A trailing slash is Next's to redirect: the route is the one without it.
    const segments = (pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname).split('/').slice(1);
    return routes.find((r) => matches(r, segments));
  };
  return {
    refuseUnrouted(req, res) {
      const pathname = pathnameOf(req.url ?? '/');
      if (!isApi(pathname)) return false;
      const route = routeOf(pathname);
      if (!route) return refuse(req, res, 404, 'NOT_FOUND', `No API route at ${pathname}`);
      const allowed = new Set([...route.methods, 'OPTIONS', ...(route.methods.includes('GET') ? ['HEAD'] : [])]);
      if (allowed.has(req.method)) return false;
      return refuse(req, res, 405, 'METHOD_NOT_ALLOWED', `${req.method} is not a method of ${route.path}`, {
        allow: [...allowed].sort().join(', '),
      });
    },
  };
}

/**
 * A request handed to Next keeps its connection usable for the next request whatever the route
 * read of its body, as on the fast path (lib/http/node-dispatch.ts):
 *
 * - once the answer is sent, a body the route left unread (a 401 before the body was looked at) is
 *   read and dropped, so the keep-alive connection reads the request after it;
 * - Next reads a body by iterating the request, and a route that stops reading (a body over its
 *   size cap, 413) ends that iteration, which destroys the request — and the connection with it,
 *   while the rest of the body is still arriving: the client got its 413, then a 400 from the
 *   parser and a reset. Until the answer is sent, destroying a request whose body has not ended,
 *   on a connection that is still open, drops the rest of the body instead. A connection the
 *   client closed destroys its request as usual.
 */
export function drainAfterAnswer(req, res) {
  const { socket } = req;
  req.destroy = function destroyOrDrain(error) {
    if (req.complete || req.readableEnded || socket.destroyed) return IncomingMessage.prototype.destroy.call(this, error);
    // The stream helpers detach a server request from its socket before destroying it.
    req.socket = socket;
    drainBody(req);
    return this;
  };
  res.once('finish', () => {
    delete req.destroy;
    if (!req.complete && !req.destroyed) drainBody(req);
  });
}
