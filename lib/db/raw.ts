import type { SQL } from 'drizzle-orm';
import { getDb, type Db } from './client';

/**
 * Runs a parameterized `sql` template and returns its rows (same shape on PGlite and Postgres), on `db` when
 * given — a transaction passes itself — else on the process's database.
 */
export async function rows<T>(query: SQL, db?: Db): Promise<T[]> {
  const result = (await (db ?? (await getDb())).execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
