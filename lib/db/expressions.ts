import { sql, type SQL } from 'drizzle-orm';

/** Time expressions the repositories write alike on PGlite and Postgres. */

/** A timestamptz as ISO 8601 text in UTC, to the millisecond (the same on PGlite and Postgres). */
export const iso = (column: SQL): SQL => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Epoch milliseconds (bigint) as a timestamptz. */
export const fromMs = (column: SQL): SQL => sql`to_timestamp(${column} / 1000.0)`;
