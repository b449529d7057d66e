/**
 * The fast path of the server entry (`server.mjs`): the routes every visitor of every customer
 * site calls — session start/update/end, track, identify, and the snippet `t.js` — and the reads
 * agents repeat most — the leads list tool (`/api/agents/tools/leads/get`) and the MCP server
 * (`/api/mcp`) —, and the workflow start (`/api/workflow/{name}`, beside the change events of
 * `/api/workflow/webhook`) — served from their route modules in `app/` by a plain node:http
 * dispatcher, without Next's router and request wrapping. Each route is its own declaration (defineRoute: auth, tenant, limiter,
 * schema, handler, envelope, CORS, request id, usage record); only the dispatch differs. Under
 * `next start` (or with FAST_PATH=0) the same modules answer through Next.
 *
 * `npm run build` bundles this file into `.next/fast-path.cjs` (scripts/build-worker.mjs). The
 * bundle holds its own copy of the app modules it imports; what must be one per process — the
 * database handle (one PGlite per data directory), the limiter, the batchers of events and key
 * usage, the job queue client, the worker child — lives on globalThis under Symbol.for keys, so
 * this copy and Next's share it.
 */
import * as getLeads from '@/app/api/agents/tools/leads/get/route';
import * as mcp from '@/app/api/mcp/route';
import * as identify from '@/app/api/visitors/identify/route';
import * as sessionEndById from '@/app/api/visitors/session/[session_id]/end/route';
import * as sessionIdentify from '@/app/api/visitors/session/[session_id]/identify/route';
import * as sessionEnd from '@/app/api/visitors/session/end/route';
import * as session from '@/app/api/visitors/session/route';
import * as track from '@/app/api/visitors/track/route';
import * as startWorkflow from '@/app/api/workflow/[name]/route';
import * as changeEvent from '@/app/api/workflow/webhook/route';
import * as snippet from '@/app/t.js/route';
import { nodeDispatcher, type NodeRoute } from '@/lib/http/node-dispatch';
import { startWorkerBesideWeb } from '@/lib/jobs/child';

/** The routes served here, by the path the route manifest gives their module (t.js: its file's path). */
export const FAST_ROUTES: NodeRoute[] = [
  { path: '/api/visitors/session', module: session },
  { path: '/api/visitors/session/end', module: sessionEnd },
  { path: '/api/visitors/session/{session_id}/end', module: sessionEndById },
  { path: '/api/visitors/session/{session_id}/identify', module: sessionIdentify },
  { path: '/api/visitors/track', module: track },
  { path: '/api/visitors/identify', module: identify },
  { path: '/t.js', module: snippet },
  { path: '/api/agents/tools/leads/get', module: getLeads },
  { path: '/api/mcp', module: mcp },
  { path: '/api/workflow/webhook', module: changeEvent },
  { path: '/api/workflow/{name}', module: startWorkflow },
];

export const dispatch = nodeDispatcher(FAST_ROUTES);

/**
 * Resolves when the process may serve: the worker child started (with the embedded database, the
 * one that holds it), as Next's instrumentation hook does — the same once-per-process start, so
 * whichever copy asks first starts it and the database is never opened here beside it.
 */
export function prepare(): Promise<void> {
  return startWorkerBesideWeb();
}
