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

/**
 * The links of a list's pager: the page's address with the list's `param` at the offset (none on
 * the first page), and with `anchor` the list's heading, so the reader lands on the list.
 */
export function pageHref(
  path: string,
  { query = {}, param = 'offset', anchor }: { query?: Record<string, string | undefined>; param?: string; anchor?: string } = {},
) {
  return (offset: number) => withQuery(path, query, { [param]: offset || undefined }) + (anchor ? `#${anchor}-heading` : '');
}

/**
 * A page read one row past its end (`limit: PAGE_SIZE + 1`): its rows, and the pager's figures,
 * which tell whether an older page exists without counting the whole list.
 */
export function peekedPage<T>(read: T[], offset: number) {
  return { rows: read.slice(0, PAGE_SIZE), pager: { offset, limit: PAGE_SIZE, total: offset + read.length, capped: read.length > PAGE_SIZE } };
}
