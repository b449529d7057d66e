/**
 * Webhook delivery throughput: a throwaway Postgres database (or PGlite with BENCH_PGLITE=1),
 * one site with one endpoint on a local receiver (127.0.0.1, answers 200 at once), BENCH_EVENTS
 * lead.created events written through the outbox, then the real delivery worker (claim under a
 * lease, sign, POST through the SSRF guard, record the attempt) until every delivery succeeded.
 * Prints deliveries per second at each concurrency. The database is dropped at the end.
 *
 *   npx tsx bench/webhook-deliveries.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_EVENTS=2000 npx tsx bench/webhook-deliveries.ts
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { resetConfig } from '@/lib/core/config';
import { getDb, openMigratedDatabase, useDatabase, type Database } from '@/lib/db/client';
import { closeQueueClient } from '@/lib/jobs/queue';
import { deliverWebhook } from '@/lib/webhooks/jobs';
import { recordEvent } from '@/lib/webhooks/outbox-repo';
import { createEndpoint } from '@/lib/webhooks/service';
import { startBackgroundWork } from '@/lib/worker';
import { adminSql, databaseUrl } from './admin';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1000);
const CONCURRENCIES = (process.env.BENCH_CONCURRENCY ?? '1,8,32').split(',').map(Number);
const PGLITE = process.env.BENCH_PGLITE === '1';

async function main() {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  process.env.OUTBOUND_ALLOW_HOSTS = '127.0.0.1';
  process.env.WEBHOOK_POLL_MS = '20';
  process.env.LOG_LEVEL = 'warn';

  const name = `bench_hooks_${randomBytes(4).toString('hex')}`;
  let dataDir: string | undefined;
  let db: Database;
  if (PGLITE) {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'sgp-bench-hooks-'));
    db = await openMigratedDatabase({ kind: 'pglite', dataDir });
  } else {
    await adminSql(ADMIN_URL, `create database ${name}`);
    db = await openMigratedDatabase({ kind: 'postgres', url: databaseUrl(ADMIN_URL, name), poolMax: 40 });
  }
  useDatabase(db);
  try {
    const [user] = await db.sql.query<{ id: string }>(`insert into users (email, password_hash) values ('bench@example.com', 'x') returning id`);
    const [site] = await db.sql.query<{ id: string }>(`insert into sites (owner_id, name) values ($1, 'Bench') returning id`, [user.id]);
    resetConfig();
    await createEndpoint(site.id, { url, events: ['lead.created'] });
    console.log(`${PGLITE ? 'PGlite' : 'Postgres'}, ${EVENTS} events per round, receiver on 127.0.0.1`);
    for (const concurrency of CONCURRENCIES) {
      process.env.WEBHOOK_CONCURRENCY = String(concurrency);
      resetConfig();
      const orm = await getDb();
      for (let i = 0; i < EVENTS; i++) {
        await orm.transaction((tx) => recordEvent(tx as never, site.id, 'lead.created', { lead: { email: `lead-${i}@acme.io` } }));
      }
      const before = received;
      const started = performance.now();
      const worker = await startBackgroundWork({ jobs: [deliverWebhook] });
      while (received - before < EVENTS) await new Promise((r) => setTimeout(r, 5));
      await worker.stop();
      await closeQueueClient();
      const seconds = (performance.now() - started) / 1000;
      const [pending] = await db.sql.query<{ n: number }>(`select count(*)::int as n from webhook_deliveries where status <> 'succeeded'`);
      console.log(
        `concurrency ${String(concurrency).padStart(2)}: ${(EVENTS / seconds).toFixed(0).padStart(5)} deliveries/s (${seconds.toFixed(2)} s; not succeeded: ${pending.n})`,
      );
    }
  } finally {
    await db.close();
    server.close();
    if (PGLITE) rmSync(dataDir!, { recursive: true, force: true });
    else await adminSql(ADMIN_URL, `drop database ${name} with (force)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
