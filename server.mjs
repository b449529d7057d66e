/**
 * The production server: `npm start` / `npm run serve` (`node server.mjs [-p PORT] [-H HOST]`).
 *
 * Next's own request handler behind a plain node:http server, so that the client address the
 * app reads (X-Forwarded-For, lib/http/client-ip.ts) is one the client cannot choose. `next start`
 * copies the socket address into X-Forwarded-For only when the request has none, so a client that
 * reaches it directly picks its own per-IP rate-limit bucket by sending the header.
 *
 * - TRUST_PROXY=0 (default: nothing in front of the app): every forwarding header is the client's
 *   own claim. X-Forwarded-For becomes the socket address; X-Real-IP, Forwarded and the other
 *   X-Forwarded-* headers are dropped (Next then derives host, port and protocol itself).
 * - TRUST_PROXY=N: the N proxies in front wrote the right end of X-Forwarded-For; it is passed on
 *   as they wrote it (the N-th entry from the right is the client). The socket address is then the
 *   nearest proxy, not the client, so it is used only when no proxy header arrived at all.
 *
 * The fast path (FAST_PATH, default on): the routes whose declarations say `fastPath` (listed in
 * scripts/fast-routes.ts) are answered by their own route
 * modules through a plain dispatcher (scripts/fast-path.ts, bundled by `npm run build` into
 * `.next/fast-path.cjs`) instead of Next's router; every other request goes to Next. FAST_PATH=0
 * sends everything to Next. The client address is pinned above both.
 *
 * What no route can take is answered here, alike for both paths (lib/http/server-edges.mjs): a
 * target that is not a path, an unknown method, a path that does not decode, an /api path with dot
 * segments, no route or not the route's method — the API's error envelope under /api.
 *
 * Plain JavaScript on purpose: production runs it with `node`, without a TypeScript loader.
 * `npm run dev` stays `next dev` (development only; it keeps Next's own header handling).
 */
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { drainAfterAnswer, refuseMalformed, routeTable } from './lib/http/server-edges.mjs';
import { inTurns } from './lib/http/turns.mjs';

/** The work, in ms, the event loop does between two chances to accept a connection when Next is busy. */
const TURN_BUDGET_MS = 4;

const CLIENT_CLAIMS = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-port', 'x-forwarded-proto', 'x-real-ip', 'forwarded'];

/** TRUST_PROXY as lib/core/config.ts parses it (an integer 0–10, default 0); this file runs before the app's config. */
function trustedHopsFrom(value) {
  if (value === undefined || value === '') return 0;
  const hops = Number(value);
  if (!Number.isInteger(hops) || hops < 0 || hops > 10)
    throw new Error(`Invalid environment configuration: TRUST_PROXY: expected an integer 0–10, got "${value}"`);
  return hops;
}

/** FAST_PATH: `0` sends every request to Next; `1` requires the bundle; unset uses it when the build made it. */
function fastPathFrom(value, bundle) {
  if (value === '0') return false;
  if (value === undefined || value === '') return existsSync(bundle);
  if (value !== '1') throw new Error(`Invalid environment configuration: FAST_PATH: expected 0 or 1, got "${value}"`);
  if (!existsSync(bundle)) throw new Error(`FAST_PATH=1 but ${bundle} is missing: run \`npm run build\``);
  return true;
}

/** Makes the request's forwarding headers say what the socket and TRUST_PROXY allow them to say. */
function pinClientAddress(req, trustedHops) {
  if (trustedHops > 0 && req.headers['x-forwarded-for']) return;
  if (trustedHops === 0) for (const name of CLIENT_CLAIMS) delete req.headers[name];
  const address = req.socket.remoteAddress;
  if (address) req.headers['x-forwarded-for'] = address;
}

async function main() {
  const { values } = parseArgs({
    options: { port: { type: 'string', short: 'p' }, hostname: { type: 'string', short: 'H' } },
    strict: true,
  });
  const port = Number(values.port ?? process.env.PORT ?? 3000);
  // As `next start`: -H, else HOSTNAME; neither: every interface.
  const hostname = values.hostname ?? (process.env.HOSTNAME || undefined);
  const trustedHops = trustedHopsFrom(process.env.TRUST_PROXY);
  const dir = fileURLToPath(new URL('.', import.meta.url));
  const bundle = path.join(dir, '.next', 'fast-path.cjs');
  const fast = fastPathFrom(process.env.FAST_PATH, bundle);
  const routes = routeTable(JSON.parse(readFileSync(path.join(dir, 'lib', 'http', 'route-table.json'), 'utf8')));
  process.env.NODE_ENV ??= 'production';
  // Where links from background jobs point when PUBLIC_URL is unset (lib/core/public-url.ts); the worker inherits it.
  process.env.PORT = String(port);

  const { default: next } = await import('next');
  const app = next({ dev: false, dir, hostname: hostname ?? 'localhost', port });
  // Runs Next's instrumentation hook: the worker child (and, embedded, the database's holder) starts.
  await app.prepare();
  const handle = app.getRequestHandler();
  let dispatch = () => false;
  if (fast) {
    const fastPath = createRequire(import.meta.url)(bundle);
    await fastPath.prepare();
    dispatch = fastPath.dispatch;
  }

  const toNext = (req, res) =>
    handle(req, res).catch((error) => {
      console.error(`Failed to handle request for ${req.url}`, error);
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  // Next's requests start in turns of the event loop, so a burst of new connections is accepted
  // while the server is busy (see lib/http/turns.mjs).
  const startNext = inTurns(toNext, TURN_BUDGET_MS);
  const server = http.createServer((req, res) => {
    pinClientAddress(req, trustedHops);
    if (refuseMalformed(req, res) || dispatch(req, res) || routes.refuseUnrouted(req, res)) return;
    drainAfterAnswer(req, res);
    startNext(req, res);
  });
  // Idle keep-alive sockets outlive the 60 s idle timeout of common load balancers and clients'
  // pools, so a reused connection is not closed under a request on its way in (ECONNRESET).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.on('error', (error) => {
    console.error('Failed to start server', error);
    process.exit(1);
  });
  server.listen(port, hostname, () => {
    console.log(`Listening on http://${hostname ?? 'localhost'}:${port} (TRUST_PROXY=${trustedHops}, fast path ${fast ? 'on' : 'off'})`);
  });

  // Same exit codes as `next start` (128 + signal number).
  const stop = (signal, code) =>
    process.once(signal, async () => {
      server.close();
      server.closeIdleConnections();
      await app.close().catch((error) => console.error(error));
      // The app's shutdown work (lib/core/shutdown.ts: the last group of key usage) before exiting.
      const shutdown = globalThis[Symbol.for('sgp.processState')]?.get('shutdown');
      if (shutdown) await Promise.allSettled([...shutdown].map((work) => work()));
      process.exit(code);
    });
  stop('SIGINT', 130);
  stop('SIGTERM', 143);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
