import { getTableColumns, sql, type SQL, type Table } from 'drizzle-orm';
import { getDb, type Db } from './client';

/**
 * Runs a parameterized `sql` template and returns its rows (same shape on PGlite and Postgres), on `db` when
 * given — a transaction passes itself — else on the process's database.
 */
export async function rows<T>(query: SQL, db?: Db): Promise<T[]> {
  const result = (await (db ?? (await getDb())).execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

type AnyTable = Table & { $inferSelect: Record<string, unknown>; $inferInsert: Record<string, unknown> };

/**
 * Rows a raw statement returned from `table` (e.g. `returning *` of a statement drizzle cannot
 * build) as the typed query layer reads them: column names to field names, driver values mapped
 * by each column (bigint epoch ms to numbers, jsonb text parsed).
 */
export function tableRows<T extends AnyTable>(table: T, raw: Record<string, unknown>[]): T['$inferSelect'][] {
  const columns = Object.entries(getTableColumns(table));
  return raw.map((r) => {
    const out: Record<string, unknown> = {};
    for (const [field, column] of columns) {
      const value = r[column.name];
      out[field] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return out as T['$inferSelect'];
  });
}

/**
 * Insert values of `table` as JSON records keyed by column name, for
 * `jsonb_populate_recordset(null::<table>, …)` (many rows as one parameter), and the column list
 * they fill (the fields of the first value; every value must have the same fields).
 */
export function tableRecords<T extends AnyTable>(table: T, values: T['$inferInsert'][]): { columns: SQL; json: string } {
  const all = getTableColumns(table);
  const fields = Object.keys(values[0] ?? {}).filter((f) => f in all);
  const names = fields.map((f) => all[f].name);
  const json = JSON.stringify(values.map((v) => Object.fromEntries(fields.map((f, i) => [names[i], (v as Record<string, unknown>)[f] ?? null]))));
  return { columns: sql.raw(names.map((n) => `"${n}"`).join(', ')), json };
}
