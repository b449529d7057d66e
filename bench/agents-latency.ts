/**
 * Agent command latency: the time from `POST /api/agents/cmo/message` (202) to the command read
 * back as `completed`, through the real route, a run of the embedded workflow engine, the AI
 * SDK and a local OpenAI-compatible stand-in model that answers at once (so the figure is the
 * service's own overhead). Messages are sent one after another; the reader polls the command
 * every 2 ms. Prints p50/p95/max over BENCH_MESSAGES (default 100) after 5 warm-up messages.
 *
 *   npx tsx bench/agents-latency.ts                                  # embedded PGlite
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/agents-latency.ts
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { POST as cmoMessage } from '@/app/api/agents/cmo/message/route';
import { engineDispatcher } from '@/lib/agents/dispatch';
import { getCommand } from '@/lib/commands/repo';
import { overrideProviders } from '@/lib/core/providers';
import { openMigratedDatabase, useDatabase, type Database } from '@/lib/db/client';
import { startBackgroundWork } from '@/lib/worker';
import { EmbeddedEngine } from '@/lib/workflows/engines/embedded';
import { call, createTenant } from '../tests/helpers/harness';
import { startLlmStandIn, useStandIn } from '../tests/helpers/llm-server';
import { applyTestEnv } from '../tests/helpers/test-env';
import { adminSql, databaseUrl } from './admin';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100);
const WARMUP = 5;
const ADMIN_URL = process.env.BENCH_DATABASE_URL;

async function main() {
  applyTestEnv();
  const standIn = await startLlmStandIn();
  useStandIn(standIn, { WORKFLOW_POLL_SECONDS: '0.5' });
  let database: Database;
  let dbName: string | undefined;
  if (ADMIN_URL) {
    dbName = `sgp_bench_${randomBytes(6).toString('hex')}`;
    await adminSql(ADMIN_URL, `create database ${dbName}`);
    database = await openMigratedDatabase({ kind: 'postgres', url: databaseUrl(ADMIN_URL, dbName), poolMax: 10 });
  } else {
    database = await openMigratedDatabase({ kind: 'pglite', dataDir: 'memory://' });
  }
  useDatabase(database);
  // As the server runs them: each command a run on the embedded engine, whose worker is this process.
  const engine = new EmbeddedEngine();
  const worker = await startBackgroundWork();
  overrideProviders({ workflowEngine: engine, commandDispatcher: engineDispatcher });
  try {
    const tenant = await createTenant();
    const times: number[] = [];
    for (let i = 0; i < WARMUP + MESSAGES; i++) {
      const started = performance.now();
      const res = await call(cmoMessage, {
        method: 'POST',
        path: '/api/agents/cmo/message',
        headers: { authorization: `Bearer ${tenant.key}` },
        body: { site_id: tenant.siteId, message: `message ${i}` },
      });
      if (res.status !== 202) throw new Error(`unexpected ${res.status} ${JSON.stringify(res.body)}`);
      for (;;) {
        const command = await getCommand(tenant.siteId, res.body.data.command_id);
        if (command?.status === 'completed') break;
        if (command?.status === 'failed') throw new Error(`command failed: ${JSON.stringify(command.error)}`);
        await new Promise((r) => setTimeout(r, 2));
      }
      if (i >= WARMUP) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
    console.log(
      `${database.kind}: message → completed command over ${times.length} messages: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${times.at(-1)!.toFixed(1)} ms`,
    );
  } finally {
    await worker.stop();
    await database.close();
    await standIn.close();
    if (dbName) await adminSql(ADMIN_URL!, `drop database if exists ${dbName} with (force)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
