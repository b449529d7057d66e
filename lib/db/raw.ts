import type { SQL } from 'drizzle-orm';
import { getDb } from './client';

/** Runs a parameterized `sql` template and returns its rows (same shape on PGlite and Postgres). */
export async function rows<T>(query: SQL): Promise<T[]> {
  const db = await getDb();
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
