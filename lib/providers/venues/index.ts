import { z } from 'zod';
import { config } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';
import { defineProvider, provider } from '@/lib/core/providers';
import { providerJson, providerShape } from '../http-json';

/**
 * Venue search (places of a kind in a region: restaurants in Madrid, gyms in Austin) behind the
 * searchRegionVenues tool. One port, one HTTP adapter; without VENUES_API_URL every call
 * answers 503 PROVIDER_NOT_CONFIGURED.
 *
 * HTTP contract: `GET {VENUES_API_URL}/venues/search?region=&query=&limit=` with
 * `Authorization: Bearer <VENUES_API_KEY>` (when set), answering
 * `{results: [{id, name, address?, category?, website?, phone?, latitude?, longitude?, rating?}]}`.
 */
export const VenueSchema = z.object({
  id: z.string().describe('Provider id of the venue'),
  name: z.string(),
  address: z.string().nullable(),
  category: z.string().nullable().describe('Kind of venue as the provider names it'),
  website: z.string().nullable(),
  phone: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  rating: z.number().nullable(),
});
export type Venue = z.infer<typeof VenueSchema>;

export interface VenueSearch {
  region: string;
  query: string;
  limit: number;
}

export interface VenuesProvider {
  search(input: VenueSearch): Promise<Venue[]>;
}

const PROVIDER = 'venue provider';
const opt = <T extends z.ZodType>(t: T) => t.nullish().transform((v) => (v ?? null) as z.infer<T> | null);
const ProviderVenue = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  name: z.string(),
  address: opt(z.string()),
  category: opt(z.string()),
  website: opt(z.string()),
  phone: opt(z.string()),
  latitude: opt(z.number()),
  longitude: opt(z.number()),
  rating: opt(z.number()),
});

export function httpVenuesProvider(baseUrl: string, apiKey: string | undefined, timeoutMs: number): VenuesProvider {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    async search({ region, query, limit }) {
      const qs = new URLSearchParams({ region, query, limit: String(limit) });
      const answer = await providerJson({
        provider: PROVIDER,
        url: `${base}/venues/search?${qs}`,
        headers: apiKey ? { authorization: `Bearer ${apiKey}` } : undefined,
        timeoutMs,
      });
      return providerShape(PROVIDER, z.object({ results: z.array(ProviderVenue) }), answer).results.slice(0, limit);
    },
  };
}

declare module '@/lib/core/providers' {
  interface ProviderMap {
    venues: VenuesProvider;
  }
}

defineProvider('venues', () => {
  const c = config();
  if (!c.VENUES_API_URL) throw new ApiError('PROVIDER_NOT_CONFIGURED', 'No venue provider is configured (set VENUES_API_URL)');
  return httpVenuesProvider(c.VENUES_API_URL, c.VENUES_API_KEY, c.VENUES_TIMEOUT_MS);
});

/** The configured venue provider; 503 PROVIDER_NOT_CONFIGURED when there is none. */
export const venuesProvider = (): VenuesProvider => provider('venues');
