import { createHash } from 'node:crypto';

/**
 * A search query in one canonical form, so the same search written twice is one role query:
 * object keys sorted, strings trimmed and lower-cased, arrays of scalars sorted and deduplicated,
 * empty values (null, "", [], {}) dropped. Two queries with equal canonical forms find the same
 * people at the provider.
 */
export function normaliseQuery(value: unknown): unknown {
  if (typeof value === 'string') return value.trim().replace(/\s+/g, ' ').toLowerCase();
  if (Array.isArray(value)) {
    const items = value.map(normaliseQuery).filter((v) => !isEmpty(v));
    if (items.every((v) => typeof v !== 'object')) {
      return [...new Set(items.map((v) => JSON.stringify(v)))].sort().map((v) => JSON.parse(v) as unknown);
    }
    return items;
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = normaliseQuery((value as Record<string, unknown>)[key]);
      if (!isEmpty(v)) out[key] = v;
    }
    return out;
  }
  return value;
}

function isEmpty(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v).length === 0;
  return false;
}

/** sha256 of the canonical form, hex. */
export const queryHash = (query: Record<string, unknown>): string =>
  createHash('sha256')
    .update(JSON.stringify(normaliseQuery(query)))
    .digest('hex');
