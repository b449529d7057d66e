import type { z } from 'zod';
import { ApiError, type ErrorCode } from './errors';
import { isUuid } from './schemas';
import { findInputIssue } from './text';

/**
 * Parses `value` with `schema`; a failure is 400 INVALID_REQUEST naming each field (`where.path`)
 * in `details.issues`. Every input of every entry (routes, tools, MCP) passes here, so the text
 * rule of ./text.ts is applied first: text the database cannot store never reaches a schema.
 */
export function parseInput<T extends z.ZodType>(
  schema: T,
  value: unknown,
  where: string,
  /** Codes other than INVALID_REQUEST for issues on a top-level field (e.g. `limit` → INVALID_LIMIT). */
  fieldCodes?: Partial<Record<string, ErrorCode>>,
): z.infer<T> {
  const unstorable = findInputIssue(value);
  const result = unstorable ? { success: false as const, error: { issues: [unstorable] } } : schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ path: [where, ...i.path].join('.'), message: i.message }));
  const special = result.error.issues.map((i) => fieldCodes?.[String(i.path[0])]).find(Boolean);
  throw new ApiError(special ?? 'INVALID_REQUEST', `Invalid ${where}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, { issues });
}

/** The distinct `site_id`s a request names, lower-cased; one that is not a UUID is a 400 (`invalidCode`). */
export function requestedSites(values: unknown[], invalidCode: ErrorCode = 'INVALID_REQUEST'): string[] {
  for (const id of values) {
    if (typeof id !== 'string' || !isUuid(id)) throw new ApiError(invalidCode, 'site_id must be a UUID');
  }
  return [...new Set((values as string[]).map((id) => id.toLowerCase()))];
}
