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

/** Every benchmark scenario. `noop` comes first: the others are reported as a ratio to it. */
export function scenarios(s: Seed): Scenario[] {
  return [
    { name: 'noop', path: '/api/health' },
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
