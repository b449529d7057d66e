import createClient, { type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema';

export type { components, paths } from './schema';

/**
 * A typed client of the Site Growth Platform API: paths, parameters, bodies and answers are
 * checked by TypeScript against the OpenAPI document (client/schema.d.ts, `npm run client`).
 *
 *   const api = siteGrowthClient('http://localhost:3000', { headers: { 'X-API-Key': key } });
 *   const { data, error } = await api.GET('/sites');
 */
export function siteGrowthClient(baseUrl: string, options: Omit<ClientOptions, 'baseUrl'> = {}) {
  return createClient<paths>({ ...options, baseUrl });
}

export type SiteGrowthClient = ReturnType<typeof siteGrowthClient>;
