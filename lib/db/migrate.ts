import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** The smallest surface both backends offer: run SQL text, run a parameterized query. */
export interface SqlRunner {
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

// Resolved at run time; next.config.ts traces the folder into deployments.
export const MIGRATIONS_DIR = path.join(/*turbopackIgnore: true*/ process.cwd(), 'supabase', 'migrations');
const FILE_PATTERN = /^(\d{14})_([a-z0-9_]+)\.sql$/;
// Any constant works; it keeps two processes starting at once from migrating together.
const LOCK_ID = 727_100_211;

export interface Migration {
  version: string;
  name: string;
  sql: string;
  checksum: string;
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(/*turbopackIgnore: true*/ dir)).filter((f) => f.endsWith('.sql')).sort();
  const versions = new Set<string>();
  for (const file of files) {
    const version = FILE_PATTERN.exec(file)?.[1];
    if (version && versions.has(version)) throw new Error(`Two migration files share the version ${version}: ${file}`);
    if (version) versions.add(version);
  }
  return Promise.all(
    files.map(async (file) => {
      const match = FILE_PATTERN.exec(file);
      if (!match) throw new Error(`Migration file name must be <14-digit timestamp>_<name>.sql: ${file}`);
      const sql = await readFile(path.join(/*turbopackIgnore: true*/ dir, file), 'utf8');
      return {
        version: match[1],
        name: match[2],
        sql,
        checksum: createHash('sha256').update(sql).digest('hex'),
      };
    }),
  );
}

/** One hash of every migration on disk (names and contents): it changes whenever one is added. */
export async function migrationsFingerprint(dir = MIGRATIONS_DIR): Promise<string> {
  const hash = createHash('sha256');
  for (const m of await readMigrations(dir)) hash.update(`${m.version} ${m.checksum}\n`);
  return hash.digest('hex');
}

/**
 * Applies pending migrations in order, each in its own transaction, and records them in
 * `schema_migrations`. Forward-only: an applied file whose content changed is an error.
 * Returns the versions applied by this call.
 */
export async function migrate(db: SqlRunner, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = await readMigrations(dir);
  await db.exec(`create table if not exists schema_migrations (
    version text primary key,
    name text not null,
    checksum text not null,
    applied_at timestamptz not null default now()
  )`);
  await db.query('select pg_advisory_lock($1)', [LOCK_ID]);
  try {
    const rows = await db.query<{ version: string; checksum: string }>('select version, checksum from schema_migrations');
    const applied = new Map(rows.map((r) => [r.version, r.checksum]));
    const done: string[] = [];
    for (const m of migrations) {
      const known = applied.get(m.version);
      if (known) {
        if (known !== m.checksum) {
          throw new Error(`Migration ${m.version}_${m.name} was changed after it was applied; add a new migration instead`);
        }
        continue;
      }
      await db.exec(
        `begin;\n${m.sql}\n;insert into schema_migrations (version, name, checksum) values ('${m.version}', '${m.name}', '${m.checksum}');\ncommit;`,
      );
      done.push(m.version);
    }
    return done;
  } catch (error) {
    await db.exec('rollback').catch(() => undefined);
    throw error;
  } finally {
    await db.query('select pg_advisory_unlock($1)', [LOCK_ID]);
  }
}
