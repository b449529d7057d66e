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

const toolHeaders = (s: Seed) => ({ authorization: `Bearer ${s.apiKey}`, 'content-type': 'application/json' });

/** 500 leads for the seeded site, through the real create tool. */
async function seedLeads(s: Seed): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const res = await fetch(`${s.base}/api/agents/tools/leads/create`, {
      method: 'POST',
      headers: toolHeaders(s),
      body: JSON.stringify({ site_id: s.siteId, name: `Bench Lead ${i}`, email: `bench.lead${i}@example.com`, company: `Company ${i % 37}` }),
    });
    if (res.status !== 201 && res.status !== 409) throw new Error(`lead seed failed: ${res.status} ${await res.text()}`);
  }
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
      setup: () => seedLeads(s),
      request: { method: 'POST', headers: toolHeaders(s), body: JSON.stringify({ site_id: s.siteId, search: 'company 1', limit: 20 }) },
    },
    {
      name: 'mcp.getLeads',
      path: '/api/mcp',
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
  ];
}
