import { z } from 'zod';

/** Rows per page of the console's lists. */
export const PAGE_SIZE = 25;

/** `?offset=` of a paged list: a whole number ≥ 0, anything else is the first page. */
export const offsetSchema = z.coerce.number().int().min(0).max(1_000_000).catch(0);

/** The page's address with `changes` applied to its query (empty values dropped). */
export function withQuery(path: string, query: Record<string, string | undefined>, changes: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...query, ...changes })) if (v !== undefined && v !== '') params.set(k, String(v));
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}
