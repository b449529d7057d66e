/**
 * Lead CSV import benchmark: writes a file of 10,000 rows (names, companies, a choice and a
 * number custom property, a few hundred emails the site already has) and times the real import
 * of POST /api/leads/import on a fresh embedded database (PGlite, the default) or on Postgres
 * (BENCH_DATABASE_URL): the request (read, parse, checks, the import queued with its rows) and
 * the `lead-import` job's body writing them in its batches until the import is `completed` — the
 * file's time from upload to done, but for the queue handing the job to a worker. Prints each
 * phase and the whole, and this process's CPU time (on PGlite, the import's own work: the figure
 * to compare when other programs share the cores); the file is refused nothing and every row is counted.
 *
 *   npx tsx bench/lead-import.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/lead-import.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import { getDb, openedDatabase, openMigratedDatabase, useDatabase } from '@/lib/db/client';
import { continueImport, getImport, importLeads } from '@/lib/leads/import';
import { createProperty } from '@/lib/leads/properties-repo';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const EXISTING = 500;

function csvFile(): string {
  const lines = ['Email,First name,Last name,Company,Job title,Phone,Plan,Deal size,Notes'];
  for (let i = 0; i < ROWS; i++) {
    const plan = ['Free', 'Pro', 'Enterprise'][i % 3];
    lines.push(
      `person${i}@example${i % 97}.com,First${i},"Last, ${i}",Company ${i % 500},Engineer,+1 555 ${String(i).padStart(4, '0')},${plan},${(i * 37) % 10_000},"Met at ""fair"" ${i}"`,
    );
  }
  return lines.join('\r\n') + '\r\n';
}

async function main() {
  const url = process.env.BENCH_DATABASE_URL;
  let cleanup: () => Promise<void>;
  if (url) {
    const name = `bench_import_${Date.now()}`;
    const admin = new Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    await useDatabase(await openMigratedDatabase({ kind: 'postgres', url: target.toString(), poolMax: 4 }));
    cleanup = async () => {
      await openedDatabase()?.close();
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
      await admin.end();
    };
  } else {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-import-'));
    await useDatabase(await openMigratedDatabase({ kind: 'pglite', dataDir: dir }));
    cleanup = async () => {
      await openedDatabase()?.close();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  try {
    const db = await getDb();
    await db.execute(sql`insert into users (email, password_hash) values ('bench@example.com', 'x')`);
    const siteRows = (await db.execute(sql`insert into sites (name, owner_id) select 'Bench', id from users limit 1 returning id`)) as unknown as {
      rows: { id: string }[];
    };
    const siteId = siteRows.rows[0].id;
    await createProperty(siteId, { site_id: siteId, key: 'plan', label: 'Plan', type: 'choice', options: ['Free', 'Pro', 'Enterprise'] });
    await createProperty(siteId, { site_id: siteId, key: 'deal_size', label: 'Deal size', type: 'number' });
    // Leads the site already has: the import updates them.
    await db.execute(
      sql`insert into leads (site_id, name, email) select ${siteId}, 'Existing ' || g, 'person' || g || '@example' || (g % 97) || '.com' from generate_series(0, ${EXISTING - 1}) g`,
    );
    const bytes = new TextEncoder().encode(csvFile());
    const file = new File([bytes], 'leads.csv', { type: 'text/csv' });
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const { import: queued } = await importLeads(siteId, { file });
    const t1 = performance.now();
    await continueImport(siteId, queued.import_id);
    const t2 = performance.now();
    const cpu = process.cpuUsage(cpu0);
    const done = await getImport(siteId, queued.import_id);
    console.log(`database: ${url ? 'postgres' : 'pglite'}; file: ${ROWS} rows, ${(bytes.length / 1024).toFixed(0)} KiB`);
    console.log(
      `request (parse, checks, queued): ${(t1 - t0).toFixed(0)} ms; job (writes): ${(t2 - t1).toFixed(0)} ms; total: ${(t2 - t0).toFixed(0)} ms`,
    );
    // The embedded database runs in this process: its CPU time is the import's work whatever else the machine runs.
    console.log(`CPU time of this process: ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms; load average ${os.loadavg()[0].toFixed(1)}`);
    console.log(`${done.status}: created ${done.created}, updated ${done.updated}, row errors ${done.errors.length}`);
    if (done.status !== 'completed' || done.created + done.updated !== ROWS) throw new Error('not every row was written');
  } finally {
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
