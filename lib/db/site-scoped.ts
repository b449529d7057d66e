import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { now } from '@/lib/core/clock';
import { ApiError, found } from '@/lib/core/errors';
import type { Resource, ResourceRow } from '@/lib/core/resource';
import { getDb, type Db } from './client';

type SiteTable = PgTable & { id: PgColumn; siteId: PgColumn; createdAt: PgColumn; updatedAt: PgColumn };

/** The first row of `table` that matches `where` (a lookup by a unique key), if any; in `q` when given. */
export async function firstRow<T extends PgTable>(table: T, where: SQL | undefined, q?: Db): Promise<T['$inferSelect'] | undefined> {
  const db = q ?? (await getDb());
  const [row] = await db
    .select()
    .from(table as PgTable)
    .where(where)
    .limit(1);
  return row as T['$inferSelect'] | undefined;
}

/** One page of the rows of `table` that match `where`, in `order`, with how many match in all. */
export async function pageOf<T extends PgTable>(
  table: T,
  where: SQL | undefined,
  order: (PgColumn | SQL)[],
  page: { limit: number; offset: number },
): Promise<{ rows: T['$inferSelect'][]; total: number }> {
  const db = await getDb();
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(table as PgTable)
      .where(where)
      .orderBy(...order)
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: count() })
      .from(table as PgTable)
      .where(where),
  ]);
  return { rows: rows as T['$inferSelect'][], total: Number(total) };
}

/** The site's row of `table` with this id, if any: another site's row is not found. */
export const findOfSite = <T extends PgTable & { id: PgColumn; siteId: PgColumn }>(table: T, siteId: string, id: string, q?: Db) =>
  firstRow(table, and(eq(table.siteId, siteId), eq(table.id, id)), q);

/**
 * The data access every site-scoped resource shares: find, create, update and list, always
 * filtered by the site id, with columns and API fields mapped by the resource's declaration.
 * `writeError` maps database errors of create/update (e.g. a unique violation → CONFLICT).
 * (`Resource<any, any>`: a resource of any fields and id key; its own types flow through R.)
 */
export function siteScoped<T extends SiteTable, R extends Resource<any, any>>(
  table: T,
  resource: R,
  o: {
    writeError?: (error: unknown, input: Record<string, unknown>) => never;
    /** Runs in the transaction of each create/update (e.g. the outbox row of a webhook event). */
    onWrite?: (tx: Db, change: 'created' | 'updated', siteId: string, object: ReturnType<R['toApi']>) => Promise<void>;
    /**
     * A create that would repeat these unique columns is refused with `refuse`'s error before anything
     * is written (`on conflict do nothing`): no row version left behind, no failed transaction.
     */
    unique?: { columns: PgColumn[]; refuse: (input: Record<string, unknown>) => ApiError };
  } = {},
) {
  type Row = T['$inferSelect'] & ResourceRow;
  type Api = ReturnType<R['toApi']>;
  const toApi = (row: Row) => resource.toApi(row) as Api;
  const ofSite = (siteId: string, id: string) => and(eq(table.siteId, siteId), eq(table.id, id));

  async function writing(input: Record<string, unknown>, write: () => Promise<Row[]>): Promise<Row | undefined> {
    try {
      return (await write())[0];
    } catch (error) {
      if (error instanceof ApiError || !o.writeError) throw error;
      o.writeError(error, input);
    }
  }

  return {
    toApi,

    find: (siteId: string, id: string) => findOfSite(table, siteId, id) as Promise<Row | undefined>,

    /** Inserts the fields present in `input` (API names); columns left out take their defaults. */
    async create(siteId: string, input: Record<string, unknown>): Promise<Api> {
      const db = await getDb();
      const insert = async (q: Db) => {
        const values = q.insert(table).values({ ...resource.columnsOf(input), siteId } as T['$inferInsert']);
        return (await (o.unique ? values.onConflictDoNothing({ target: o.unique.columns }) : values).returning()) as Row[];
      };
      const onWrite = o.onWrite;
      const row = await writing(input, () =>
        onWrite
          ? db.transaction(async (tx) => {
              const rows = await insert(tx);
              if (rows[0]) await onWrite(tx, 'created', siteId, toApi(rows[0]));
              return rows;
            })
          : insert(db),
      );
      if (!row) throw o.unique!.refuse(input);
      return toApi(row);
    },

    /** Changes the fields present in `input` (`null` clears); 404 unless the object is the site's. */
    async update(siteId: string, id: string, input: Record<string, unknown>): Promise<Api> {
      const db = await getDb();
      const update = async (q: Db) =>
        (await q
          .update(table)
          .set({ ...resource.columnsOf(input), updatedAt: new Date(now()) } as never)
          .where(ofSite(siteId, id))
          .returning()) as Row[];
      const onWrite = o.onWrite;
      const row = await writing(input, () =>
        onWrite
          ? db.transaction(async (tx) => {
              const rows = await update(tx);
              if (rows[0]) await onWrite(tx, 'updated', siteId, toApi(rows[0]));
              return rows;
            })
          : update(db),
      );
      return toApi(found(row, resource.name));
    },

    /** One page of the site's objects matching `filters`, newest first, with the total. */
    async list(siteId: string, filters: (SQL | undefined)[], page: { limit: number; offset: number }): Promise<{ items: Api[]; total: number }> {
      const { rows, total } = await pageOf(table, and(eq(table.siteId, siteId), ...filters), [desc(table.createdAt), desc(table.id)], page);
      return { items: (rows as Row[]).map(toApi), total };
    },
  };
}
