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
  ];
}
