import { z } from 'zod';
import { config } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';
import { defineProvider, provider } from '@/lib/core/providers';

/**
 * The people-data provider behind the finder tools. One port, one HTTP adapter; without
 * PEOPLE_DATA_API_URL every call answers 503 PROVIDER_NOT_CONFIGURED.
 *
 * HTTP contract of the adapter: `GET {PEOPLE_DATA_API_URL}/categories/search?query=<text>` with
 * `Authorization: Bearer <PEOPLE_DATA_API_KEY>` (when set), answering
 * `{ "results": [{ "id": string, "name": string, "category": string }] }`.
 */
export const FinderCategorySchema = z.object({
  id: z.string().describe('Provider id of the category value, usable in person_role_search'),
  name: z.string().describe('Human-readable name'),
  category: z.string().describe('Which filter the id belongs to (e.g. industry, location, job_title, seniority)'),
});
export type FinderCategory = z.infer<typeof FinderCategorySchema>;

export interface PeopleDataProvider {
  /** Category ids (industries, locations, job titles…) whose names match free text. */
  searchCategoryIds(query: string): Promise<FinderCategory[]>;
}

const ResponseSchema = z.object({ results: z.array(FinderCategorySchema) });

export function httpPeopleDataProvider(baseUrl: string, apiKey: string | undefined, timeoutMs: number): PeopleDataProvider {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    async searchCategoryIds(query) {
      const url = `${base}/categories/search?${new URLSearchParams({ query })}`;
      let res: Response;
      try {
        res = await fetch(url, {
          headers: { accept: 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch {
        throw new ApiError('PROVIDER_ERROR', 'The people-data provider could not be reached');
      }
      if (!res.ok) throw new ApiError('PROVIDER_ERROR', `The people-data provider answered ${res.status}`, { provider_status: res.status });
      const parsed = ResponseSchema.safeParse(await res.json().catch(() => undefined));
      if (!parsed.success) throw new ApiError('PROVIDER_ERROR', 'The people-data provider sent an unexpected response');
      return parsed.data.results;
    },
  };
}

declare module '@/lib/core/providers' {
  interface ProviderMap {
    peopleData: PeopleDataProvider;
  }
}

defineProvider('peopleData', () => {
  const c = config();
  if (!c.PEOPLE_DATA_API_URL) {
    throw new ApiError('PROVIDER_NOT_CONFIGURED', 'No people-data provider is configured (set PEOPLE_DATA_API_URL)');
  }
  return httpPeopleDataProvider(c.PEOPLE_DATA_API_URL, c.PEOPLE_DATA_API_KEY, c.PEOPLE_DATA_TIMEOUT_MS);
});

/** The configured provider; 503 PROVIDER_NOT_CONFIGURED when there is none. */
export const peopleDataProvider = (): PeopleDataProvider => provider('peopleData');
