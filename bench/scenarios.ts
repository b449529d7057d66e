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
}

const BROWSER_ORIGIN = 'https://bench.example.com';

async function startSession(s: Seed): Promise<string> {
  const res = await fetch(`${s.base}/api/visitors/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sa-api-key': s.apiKey },
    body: JSON.stringify({ site_id: s.siteId, fingerprint: `bench-${Math.random()}` }),
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`session start failed: ${JSON.stringify(body)}`);
  return body.data.session_id;
}

/**
 * Ingestion: track and session create, with X-SA-API-KEY and from a browser Origin (the seeded
 * site's domain). A session holds at most 1,000 events, so track spreads its events over a pool
 * of sessions created in setup; session create sends a new fingerprint each time.
 */
function ingestion(s: Seed): Scenario[] {
  const trackScenario = (name: string, headers: Record<string, string>): Scenario => {
    const sessions: string[] = [];
    let sent = 0;
    const body = () =>
      JSON.stringify({ site_id: s.siteId, session_id: sessions[Math.floor(sent++ / 900) % sessions.length], event_type: 'click', url: 'https://bench.example.com/' });
    return {
      name,
      path: '/api/visitors/track',
      request: {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        // 900 events per session keeps every request under the 1,000-event cap.
        requests: [{ setupRequest: (req) => ({ ...req, body: body() }) }],
      },
      setup: async () => {
        for (let i = 0; i < 200; i++) sessions.push(await startSession(s));
      },
    };
  };
  const createScenario = (name: string, headers: Record<string, string>): Scenario => {
    let n = 0;
    return {
      name,
      path: '/api/visitors/session',
      request: {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ site_id: s.siteId, fingerprint: `fp-${name}-${n++}`, url: 'https://bench.example.com/' }) }) }],
      },
    };
  };
  return [
    trackScenario('track.key', { 'x-sa-api-key': s.apiKey }),
    trackScenario('track.origin', { origin: BROWSER_ORIGIN }),
    createScenario('session.create.key', { 'x-sa-api-key': s.apiKey }),
    createScenario('session.create.origin', { origin: BROWSER_ORIGIN }),
  ];
}

/** Every benchmark scenario. `noop` comes first: the others are reported as a ratio to it. */
export function scenarios(s: Seed): Scenario[] {
  return [
    { name: 'noop', path: '/api/health' },
    { name: 'sites.list', path: '/sites', request: { headers: { 'x-api-key': s.apiKey } } },
    ...ingestion(s),
  ];
}
