import { database } from './client';

/**
 * Vacuum and statistics for the embedded database. Postgres keeps its tables by itself
 * (autovacuum); PGlite runs no background processes, so without this its tables would keep every
 * dead row version (session renewals, the job queue's churn) and the planner would never learn
 * how many rows a table holds or how its values spread. The worker's `database-maintenance` job
 * (lib/jobs/database-maintenance.ts) checks every minute, as autovacuum's launcher does, and does
 * what autovacuum would have done, with its default thresholds, one table at a time (each
 * statement holds the single-connection database only for its table). An `analyze` also makes the
 * held statements of the embedded socket server plan again for the table as it now is.
 *
 * A table of fewer than SMALL_TABLE_PAGES pages is left as it is. Until a table is first vacuumed
 * or analyzed, the planner takes it to be at least that large (Postgres' own rule for a new table),
 * so it looks rows up through an index rather than scanning. A plan made once and kept — a held
 * statement's generic plan (the event batch runs on one), a foreign key's check — then stays
 * right as the table grows; statistics taken while the table held a few rows would make it a scan
 * of the table, kept until the next `analyze` while the table grew meanwhile. Left unvacuumed, a
 * small table's dead rows grow it to that size at most before it is vacuumed.
 */
interface TableActivity {
  name: string;
  pages: number;
  live: number;
  dead: number;
  modified: number;
}

/** The planner's least size, in pages, of a table never vacuumed or analyzed. */
const SMALL_TABLE_PAGES = 10;

/** Autovacuum's defaults: vacuum past 50 + 20 % dead rows, analyze past 50 + 10 % changed rows. */
const needsVacuum = (t: TableActivity) => t.dead > 50 + 0.2 * t.live;
const needsAnalyze = (t: TableActivity) => t.modified > 50 + 0.1 * t.live;

/** Vacuums and analyzes the tables of the embedded database that need it; on Postgres, nothing. */
export async function maintainEmbeddedTables(signal?: AbortSignal): Promise<{ vacuumed: string[]; analyzed: string[] }> {
  const done = { vacuumed: [] as string[], analyzed: [] as string[] };
  const db = await database();
  if (db.kind !== 'pglite') return done;
  const tables = await db.sql.query<TableActivity>(
    `select format('%I.%I', schemaname, relname) as name, n_live_tup::float8 as live, n_dead_tup::float8 as dead,
            n_mod_since_analyze::float8 as modified,
            (pg_relation_size(relid) / current_setting('block_size')::int)::float8 as pages
     from pg_stat_user_tables order by relname`,
  );
  for (const t of tables) {
    if (signal?.aborted) break;
    if (t.pages < SMALL_TABLE_PAGES) continue;
    // `name` comes from the catalog, quoted by format('%I').
    if (needsVacuum(t)) {
      await db.sql.exec(`vacuum (analyze) ${t.name}`);
      done.vacuumed.push(t.name);
    } else if (needsAnalyze(t)) {
      await db.sql.exec(`analyze ${t.name}`);
      done.analyzed.push(t.name);
    }
  }
  return done;
}
