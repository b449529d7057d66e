import type { Options } from 'autocannon';

export interface Seed {
  base: string;
  siteId: string;
  apiKey: string;
  sessionToken: string;
}

export interface Scenario {
  /** Run before the scenario; may adjust its request (e.g. name a session it created). */
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
 * Ingestion scenarios (§ issue 4): track and session create, with X-SA-API-KEY and from a browser
 * Origin. Track events go to one session per scenario; each session holds 1,000 events, after
 * which the answer is a 409, so each track scenario spreads its events over a pool of sessions.
 */
function ingestion(s: Seed): Scenario[] {
  const trackScenario = (name: string, headers: Record<string, string>): Scenario => {
    const sessions: string[] = [];
    const scenario: Scenario = {
      name,
      path: '/api/visitors/track',
      request: { method: 'POST' },
      setup: async () => {
        for (let i = 0; i < 400; i++) sessions.push(await startSession(s));
        let i = 0;
        scenario.request = {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          // A fresh session per 900 events keeps every request under the per-session cap.
          setupClient: (client) =>
            client.setBody(JSON.stringify({ site_id: s.siteId, session_id: sessions[i++ % sessions.length], event_type: 'click', url: 'https://bench.example.com/' })),
          requests: [
            {
              setupRequest: (req) => {
                i++;
                const sessionId = sessions[Math.floor(i / 900) % sessions.length];
                return { ...req, body: JSON.stringify({ site_id: s.siteId, session_id: sessionId, event_type: 'click', url: 'https://bench.example.com/' }) };
              },
            },
          ],
        };
      },
    };
    return scenario;
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
