/**
 * The fast path of the server entry (`server.mjs`): the routes whose declarations say `fastPath`
 * (the ingestion routes every tracked page calls, the tag, the reads and starts agents and servers
 * repeat most — the list: scripts/fast-routes.ts, which `npm run routes` writes) are served from
 * their route modules in `app/` by a plain node:http dispatcher, without Next's router and request
 * wrapping. Each route is its own declaration (defineRoute: auth, tenant, limiter, schema, handler,
 * envelope, CORS, request id, usage record); only the dispatch differs. Under `next start` (or
 * with FAST_PATH=0) the same modules answer through Next.
 *
 * `npm run build` bundles this file into `.next/fast-path.cjs` (scripts/build-worker.mjs). The
 * bundle holds its own copy of the app modules it imports; what must be one per process — the
 * database handle, the limiter, the batchers, the job queue client, the worker child — is process
 * state (lib/core/process-state.ts), so this copy and Next's share it.
 */
import { nodeDispatcher } from '@/lib/http/node-dispatch';
import { startWorkerBesideWeb } from '@/lib/jobs/child';
import { FAST_ROUTES } from './fast-routes';

export { FAST_ROUTES };

export const dispatch = nodeDispatcher(FAST_ROUTES);

/**
 * Resolves when the process may serve: the worker child started (with the embedded database, the
 * one that holds it), as Next's instrumentation hook does — the same once-per-process start, so
 * whichever copy asks first starts it and the database is never opened here beside it.
 */
export function prepare(): Promise<void> {
  return startWorkerBesideWeb();
}
