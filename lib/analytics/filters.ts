import { ApiError } from '@/lib/core/errors';
import { FILTER_DIMENSIONS, MAX_FILTERS, NONE_VALUE, type FilterDimension } from './schema';

/**
 * The filters of an analytics read, as a query string gives them: `dimension:value` keeps the
 * visits that match, `dimension!:value` leaves them out; several apply together (AND).
 */
export interface Filter {
  dimension: FilterDimension;
  /** true for `!:` (leave the matching visits out). */
  exclude: boolean;
  /** The value; null for `(none)`. */
  value: string | null;
  /** `*` in a path: a pattern. */
  pattern: boolean;
}

const MAX_VALUE = 500;
const SHAPE = /^([a-z_]+)(!?):(.*)$/s;
const PATH_DIMENSIONS = new Set<FilterDimension>(['page', 'entry_page', 'exit_page']);

const invalid = (message: string) =>
  new ApiError('INVALID_REQUEST', `Invalid query: query.filter: ${message}`, { issues: [{ path: 'query.filter', message }] });

/** The filters of a query (`filter` once, repeated, or absent); a bad one is 400 INVALID_REQUEST naming `query.filter`. */
export function parseFilters(given: string | string[] | undefined): Filter[] {
  const list = given === undefined ? [] : Array.isArray(given) ? given : [given];
  if (list.length > MAX_FILTERS) throw invalid(`at most ${MAX_FILTERS} filters`);
  const seen = new Set<string>();
  const filters: Filter[] = [];
  for (const text of list) {
    const m = SHAPE.exec(text);
    if (!m) throw invalid(`"${text.slice(0, 100)}" is not <dimension>:<value> or <dimension>!:<value>`);
    const [, name, bang, value] = m;
    if (!(FILTER_DIMENSIONS as readonly string[]).includes(name))
      throw invalid(`unknown dimension "${name}"; one of ${FILTER_DIMENSIONS.join(', ')}`);
    if (!value.trim()) throw invalid(`"${name}" needs a value (${NONE_VALUE} for none)`);
    if (value.length > MAX_VALUE) throw invalid(`a value has at most ${MAX_VALUE} characters`);
    const dimension = name as FilterDimension;
    if (dimension === 'goal' && value === NONE_VALUE) throw invalid('goal needs the name of a goal');
    if (seen.has(text)) continue;
    seen.add(text);
    filters.push({
      dimension,
      exclude: bang === '!',
      value: value === NONE_VALUE ? null : value,
      pattern: PATH_DIMENSIONS.has(dimension) && value.includes('*'),
    });
  }
  return filters;
}

/** The filters as the answer names them back. */
export const filterTexts = (filters: Filter[]) => filters.map((f) => `${f.dimension}${f.exclude ? '!' : ''}:${f.value ?? NONE_VALUE}`);
