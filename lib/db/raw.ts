import { getTableColumns, sql, type Column, type SQL, type Table } from 'drizzle-orm';
import { getDb, type Db } from './client';
import { PLAN_PER_CALL } from './statement-cache';

/**
 * Runs a parameterized `sql` template and returns its rows (same shape on PGlite and Postgres), on `db` when
 * given — a transaction passes itself — else on the process's database.
 */
export async function rows<T>(query: SQL, db?: Db): Promise<T[]> {
  const result = (await (db ?? (await getDb())).execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * Begins a statement whose best plan depends on its values (lib/db/statement-cache.ts): the embedded
 * database plans it with them on every call, as Postgres plans every statement the driver sends.
 */
export const planPerCall: SQL = sql.raw(PLAN_PER_CALL);

type AnyTable = Table & { $inferSelect: Record<string, unknown>; $inferInsert: Record<string, unknown> };
type Columns = [field: string, column: Column][];

/** A table's fields and columns, listed once per table (drizzle copies them on every `getTableColumns`). */
const tableColumns = new WeakMap<Table, Columns>();
function columnsOf(table: Table): Columns {
  let columns = tableColumns.get(table);
  if (!columns) tableColumns.set(table, (columns = Object.entries(getTableColumns(table))));
  return columns;
}

/**
 * Rows a raw statement returned from `table` (e.g. `returning *` of a statement drizzle cannot
 * build) as the typed query layer reads them: column names to field names, driver values mapped
 * by each column (bigint epoch ms to numbers, jsonb text parsed).
 */
export function tableRows<T extends AnyTable>(table: T, raw: Record<string, unknown>[]): T['$inferSelect'][] {
  const columns = columnsOf(table);
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
  const first = (values[0] ?? {}) as Record<string, unknown>;
  const fields = columnsOf(table).filter(([field]) => field in first);
  const records = values.map((v) => {
    const record: Record<string, unknown> = {};
    for (const [field, column] of fields) record[column.name] = (v as Record<string, unknown>)[field] ?? null;
    return record;
  });
  return { columns: sql.raw(fields.map(([, column]) => `"${column.name}"`).join(', ')), json: JSON.stringify(records) };
}
