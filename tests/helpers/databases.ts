import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { database, openMigratedDatabase, type Database } from '@/lib/db/client';

/** A fresh, migrated database of the suite's backend, and how to dispose of it. */
export async function openTestDatabase(kind = process.env.TEST_DB ?? 'pglite'): Promise<{ database: Database; dispose(): Promise<void> }> {
  if (kind === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error('TEST_DATABASE_URL is required for the postgres suites');
    const name = `sgp_test_${randomBytes(6).toString('hex')}`;
    await withAdmin(adminUrl, (c) => c.query(`create database ${name}`));
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = await openMigratedDatabase({ kind: 'postgres', url: url.toString(), poolMax: 5 });
    return {
      database,
      dispose: async () => {
        await database.close();
        await withAdmin(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
      },
    };
  }
  const template = process.env.PGLITE_TEMPLATE;
  const database = await openMigratedDatabase({
    kind: 'pglite',
    dataDir: 'memory://',
    loadDataDir: template ? new Blob([readFileSync(template)]) : undefined,
  });
  return { database, dispose: () => database.close() };
}

/** On Postgres, the URL of the suite's own database, as another process of the app would reach it. */
export async function suiteDatabaseUrl(): Promise<string> {
  const [{ name }] = await (await database()).sql.query<{ name: string }>('select current_database() as name');
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
