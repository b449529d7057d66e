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

/** Every benchmark scenario. `noop` comes first: the others are reported as a ratio to it. */
export function scenarios(s: Seed): Scenario[] {
  return [
    { name: 'noop', path: '/api/health' },
    { name: 'sites.list', path: '/sites', request: { headers: { 'x-api-key': s.apiKey } } },
  ];
}
