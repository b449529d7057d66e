import { getTableColumns, sql, type Column, type SQL, type Table } from 'drizzle-orm';
import { processState } from '@/lib/core/process-state';
import type { Db } from './client';
import { statementDb } from './replica';
import { PLAN_PER_CALL } from './statement-cache';

/** How a statement is planned. */
export interface RowsOptions {
  /**
   * `per-call`: the statement's best plan depends on its values (a search whose selectivity only the
   * term tells, a page size the planner must know to pick an index walk), so the embedded database
   * plans it with them on every call, as Postgres plans every statement the driver sends, and never
   * keeps a generic plan of it (./statement-cache.ts). By default a statement may be held and planned once.
   */
  plan?: 'per-call';
}

const planPerCall: SQL = sql.raw(PLAN_PER_CALL);

/**
 * Runs a parameterized `sql` template and returns its rows (same shape on PGlite and Postgres), on `db` when
 * given — a transaction passes itself — else on the process's database (the read replica inside a read that
 * may use it, ./replica.ts).
 */
export async function rows<T>(query: SQL, db?: Db, options: RowsOptions = {}): Promise<T[]> {
  const statement = options.plan === 'per-call' ? sql`${planPerCall}${query}` : query;
  const result = (await (db ?? (await statementDb())).execute(statement)) as unknown as { rows: T[] };
  return result.rows;
}

/** Runs a parameterized write (a `delete`, an `update`) and answers how many rows it changed. */
export async function changedRows(query: SQL, db?: Db): Promise<number> {
  const result = (await (db ?? (await statementDb())).execute(query)) as unknown as { affectedRows?: number; rowCount?: number };
  return result.affectedRows ?? result.rowCount ?? 0;
}

type AnyTable = Table & { $inferSelect: Record<string, unknown>; $inferInsert: Record<string, unknown> };
type Columns = [field: string, column: Column][];

/** A table's fields and columns, listed once per table (drizzle copies them on every `getTableColumns`). */
const tableColumns = processState('db.tableColumns', () => new WeakMap<Table, Columns>());
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
