import type { Options } from 'autocannon';

export interface Seed {
  base: string;
  siteId: string;
  apiKey: string;
  sessionToken: string;
}

export interface Scenario {
  name: string;
  path: string;
  request?: Partial<Options>;
  setup?: () => Promise<void>;
  /**
   * Run only on a server with this limiter. Ingestion capacity is measured without limits: the
   * visitor limits (1,000 requests/min per key or site) would cap one client at about 17 req/s.
   */
  onlyLimiter?: 'none';
  /** Served by the server entry's fast path (scripts/fast-path.ts): BENCH_SLOW_PATH=1 runs it through Next too. */
  fastPath?: boolean;
  /** It leaves lasting work behind (runs the worker keeps executing): the run puts it after every other scenario. */
  lasting?: boolean;
}

const toolHeaders = (s: Seed) => ({ authorization: `Bearer ${s.apiKey}`, 'content-type': 'application/json' });

/** The 500 leads of a server's site, created once: the leads and MCP scenarios read the same ones. */
const leadSeeds = new Map<string, Promise<void>>();
function seedLeads(s: Seed): Promise<void> {
  const key = `${s.base} ${s.siteId}`;
  if (!leadSeeds.has(key)) leadSeeds.set(key, createLeads(s));
  return leadSeeds.get(key)!;
}

/** 500 leads for the seeded site, through the real create tool. */
async function createLeads(s: Seed): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const res = await fetch(`${s.base}/api/agents/tools/leads/create`, {
      method: 'POST',
      headers: toolHeaders(s),
      body: JSON.stringify({ site_id: s.siteId, name: `Bench Lead ${i}`, email: `bench.lead${i}@example.com`, company: `Company ${i % 37}` }),
    });
    if (res.status !== 201 && res.status !== 409) throw new Error(`lead seed failed: ${res.status} ${await res.text()}`);
  }
}

const BROWSER_ORIGIN = 'https://bench.example.com';

async function startSession(s: Seed, fingerprint = `bench-${Math.random()}`): Promise<string> {
  const res = await fetch(`${s.base}/api/visitors/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sa-api-key': s.apiKey },
    body: JSON.stringify({ site_id: s.siteId, fingerprint }),
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`session start failed: ${JSON.stringify(body)}`);
  return body.data.session_id;
}

/**
 * Ingestion: track and session create, with X-SA-API-KEY and from a browser Origin (the seeded
 * site's domain). A session holds at most 1,000 events, so track spreads its events over a pool
 * of sessions created in setup; session create sends a new fingerprint each time, session
 * returning one of a pool whose sessions are open. `track.engagement` is what the tag sends as a
 * page is left: an engagement event, as text/plain from the site's origin.
 */
function ingestion(s: Seed): Scenario[] {
  const click = { event_type: 'click' };
  const engagement = { event_type: 'engagement', properties: { engaged_ms: 4200, scroll_depth: 75 } };
  const trackScenario = (name: string, headers: Record<string, string>, event: Record<string, unknown> = click): Scenario => {
    const sessions: string[] = [];
    let sent = 0;
    const body = () =>
      JSON.stringify({
        site_id: s.siteId,
        session_id: sessions[Math.floor(sent++ / 900) % sessions.length],
        url: 'https://bench.example.com/',
        ...event,
      });
    return {
      name,
      onlyLimiter: 'none',
      path: '/api/visitors/track',
      request: {
        method: 'POST',
        headers: { 'content-type': event === engagement ? 'text/plain;charset=UTF-8' : 'application/json', ...headers },
        // 900 events per session keeps every request under the 1,000-event cap.
        requests: [{ setupRequest: (req) => ({ ...req, body: body() }) }],
      },
      setup: async () => {
        for (let i = 0; i < 200; i++) sessions.push(await startSession(s));
      },
    };
  };
  /**
   * Session start. Without `returning`, a new fingerprint each request (201); with it, the fingerprints
   * of a pool whose sessions setup opened, in turn (200, the open session reused).
   */
  const sessionScenario = (name: string, headers: Record<string, string>, returning?: number): Scenario => {
    const pool = Array.from({ length: returning ?? 0 }, (_, i) => `fp-${name}-${i}`);
    let n = 0;
    const fingerprint = () => (returning ? pool[n++ % returning] : `fp-${name}-${n++}`);
    return {
      name,
      onlyLimiter: 'none',
      path: '/api/visitors/session',
      request: {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        requests: [
          {
            setupRequest: (req) => ({
              ...req,
              body: JSON.stringify({ site_id: s.siteId, fingerprint: fingerprint(), url: 'https://bench.example.com/' }),
            }),
          },
        ],
      },
      setup: returning
        ? async () => {
            for (const fp of pool) await startSession(s, fp);
          }
        : undefined,
    };
  };
  return [
    trackScenario('track.key', { 'x-sa-api-key': s.apiKey }),
    trackScenario('track.origin', { origin: BROWSER_ORIGIN }),
    trackScenario('track.engagement', { origin: BROWSER_ORIGIN }, engagement),
    sessionScenario('session.create.key', { 'x-sa-api-key': s.apiKey }),
    sessionScenario('session.create.origin', { origin: BROWSER_ORIGIN }),
    sessionScenario('session.returning.key', { 'x-sa-api-key': s.apiKey }, 200),
  ];
}

/**
 * Every benchmark scenario. `noop` comes first: the others are reported as a ratio to it.
 * `noop.proxied` is the same route sent through proxy.ts (its matcher admits /api/health when the
 * request carries `x-proxy-probe`): the proxy's cost. `sites.list` is an API-key route, so it runs
 * the plan limiter (one window count and one concurrency slot per request) unless the run's
 * limiter is `none`.
 */
export function scenarios(s: Seed): Scenario[] {
  return [
    { name: 'noop', path: '/api/health' },
    { name: 'noop.proxied', path: '/api/health', request: { headers: { 'x-proxy-probe': '1' } } },
    { name: 'sites.list', path: '/sites', request: { headers: { 'x-api-key': s.apiKey } } },
    {
      name: 'tools.leads.get',
      path: '/api/agents/tools/leads/get',
      fastPath: true,
      setup: () => seedLeads(s),
      request: { method: 'POST', headers: toolHeaders(s), body: JSON.stringify({ site_id: s.siteId, search: 'company 1', limit: 20 }) },
    },
    {
      name: 'mcp.getLeads',
      path: '/api/mcp',
      fastPath: true,
      setup: () => seedLeads(s),
      request: {
        method: 'POST',
        headers: { ...toolHeaders(s), accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'getLeads', arguments: { site_id: s.siteId, search: 'company 1', limit: 20 } },
        }),
      },
    },
    {
      // A run is inserted and queued per request; the app's worker executes them meanwhile.
      name: 'workflow.start',
      lasting: true,
      fastPath: true,
      path: '/api/workflow/webhook',
      request: {
        method: 'POST',
        headers: toolHeaders(s),
        body: JSON.stringify({ site_id: s.siteId, type: 'INSERT', table: 'leads', record: { id: 1 } }),
      },
    },
    {
      // A catalog workflow's start, as bench/background.ts sends it (WORKERS=off: the runs stay queued, only the start is measured).
      name: 'workflow.start.standUp',
      lasting: true,
      fastPath: true,
      path: '/api/workflow/dailyStandUp',
      request: { method: 'POST', headers: toolHeaders(s), body: JSON.stringify({ site_id: s.siteId }) },
    },
    ...ingestion(s),
  ];
}
