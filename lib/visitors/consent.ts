import { sql, type SQL } from 'drizzle-orm';

/**
 * The consent rule of every reader and writer: consent.analytics false → only strictly necessary
 * data and events are kept. Absent = granted.
 */
export const analyticsAllowed = (consent: Record<string, unknown> | null | undefined): boolean => consent?.analytics !== false;

/** The same rule in SQL, on a jsonb consent expression. */
export const analyticsAllowedSql = (consent: SQL): SQL => sql`coalesce((${consent}) -> 'analytics' <> 'false'::jsonb, true)`;
