import { spawn } from 'node:child_process';
import type { LogLevel } from '@temporalio/worker';
import { config } from '@/lib/core/config';
import { errorFields, log } from '@/lib/core/log';
import { resetProviders } from '@/lib/core/providers';
import {
  closeProcessDatabase,
  embeddedDataDir,
  embeddedPrepared,
  markEmbeddedPrepared,
  openDatabase,
  openMigratedDatabase,
  openProcessDatabase,
  useDatabase,
  type Database,
} from '@/lib/db/client';
import type { EmbeddedServer } from '@/lib/db/embedded-server';
import { closeQueueClient } from '@/lib/jobs/queue';
import { newQueueClient } from '@/lib/jobs/queue-repo';
import { temporalSettings } from '@/lib/workflows/engines/temporal/settings';
import { startBackgroundWork } from './index';
import { logMemoryOnSignal } from './memory';

/**
 * The worker process's life cycle (`npm run worker`, and the child the server starts beside
 * itself): open the database — or, with `--serve-database <dir>`, hold the embedded one and serve
 * it on a socket there for the web process — run every background job, and on SIGTERM/SIGINT (or
 * when the server that started it goes away) finish what is in flight and stop.
 *
 * Messages from the server that started it: `{ wake: <queue> }` (a job was just sent there).
 * To it: `{ ready: true }` once the database is served and the jobs run.
 */
const LEVELS: Record<string, LogLevel> = { debug: 'DEBUG', info: 'INFO', warn: 'WARN', error: 'ERROR', silent: 'ERROR' };
const WRITE = { TRACE: log.debug, DEBUG: log.debug, INFO: log.info, WARN: log.warn, ERROR: log.error } as const;

export function serveDatabaseArgument(argv = process.argv): string | undefined {
  const at = argv.indexOf('--serve-database');
  return at >= 0 ? argv[at + 1] : undefined;
}

const PREPARE_FLAG = '--prepare-database';

/**
 * Brings the embedded database up to date — app migrations and the job queue's schema — and
 * closes it. PGlite's WebAssembly memory grows with the work done and never shrinks, and a fresh
 * database's migrations are most of the work it will ever do at once: done by a short-lived
 * process (`<worker entry> --prepare-database`), they leave the long-lived worker only a database
 * that is already migrated to reopen (~150 MB less resident on a fresh data directory).
 */
export async function prepareEmbeddedDatabase(): Promise<void> {
  const cfg = config();
  const dataDir = embeddedDataDir();
  const db = await openMigratedDatabase({ kind: 'pglite', dataDir, sharedBuffersMb: cfg.PGLITE_SHARED_BUFFERS_MB });
  try {
    const boss = await newQueueClient(undefined, db);
    await boss.stop({ graceful: false, close: false, wait: true });
  } finally {
    await db.close();
  }
  await markEmbeddedPrepared(dataDir);
}

/** Runs `prepareEmbeddedDatabase` in a child process of this same entry, unless the data directory is already prepared. */
async function prepareApart(): Promise<void> {
  if (await embeddedPrepared(embeddedDataDir())) return;
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1], PREPARE_FLAG], {
    env: process.env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const [code, signal] = await new Promise<[number | null, string | null]>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (c, s) => resolve([c, s]));
  });
  if (code !== 0) throw new Error(`preparing the embedded database failed (${signal ?? `code ${code}`}); its log above says why`);
}

/** The worker entry (scripts/worker.ts): prepares the embedded database when asked to, else runs the worker. */
export async function workerMain(): Promise<void> {
  if (process.argv.includes(PREPARE_FLAG)) {
    await prepareEmbeddedDatabase();
    process.exit(0);
  }
  await runWorkerProcess();
}

export async function runWorkerProcess(o: { requireTemporal?: boolean } = {}): Promise<void> {
  let embedded: { held: Database; server: EmbeddedServer } | undefined;
  logMemoryOnSignal(() => embedded?.held);
  const cfg = config();
  const settings = temporalSettings(cfg);
  const serveAt = serveDatabaseArgument();
  if (o.requireTemporal && !settings) throw new Error('TEMPORAL_ADDRESS is not set: the Temporal worker has no cluster to serve');
  if (!cfg.DATABASE_URL && !serveAt) {
    throw new Error(
      'DATABASE_URL is not set: a separate worker shares the app database, and the embedded one serves one process only. ' +
        'With the embedded database, `npm start` runs the worker itself; use `npm run worker` with Postgres.',
    );
  }
  if (settings) {
    const { DefaultLogger, Runtime } = await import('@temporalio/worker');
    // The SDK's own logs go through the app's JSON log; signals are handled below.
    Runtime.install({
      logger: new DefaultLogger(LEVELS[cfg.LOG_LEVEL], (entry) => WRITE[entry.level](entry.message, entry.meta)),
      shutdownSignals: [],
    });
  }

  if (serveAt) {
    await prepareApart();
    const held = await openMigratedDatabase({ kind: 'pglite', dataDir: embeddedDataDir(), sharedBuffersMb: cfg.PGLITE_SHARED_BUFFERS_MB });
    const server = await held.serve!(serveAt);
    embedded = { held, server };
    // This process's own queries take their turn on the socket like the web process's.
    useDatabase(await openDatabase({ kind: 'pglite-socket', socketDir: serveAt, poolMax: 4 }));
  }
  await openProcessDatabase();
  const work = await startBackgroundWork();
  log.info('worker started', { embedded_database: Boolean(serveAt), temporal: Boolean(settings) });

  let stopping = false;
  const stop = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    log.info('worker stopping, finishing jobs in flight', { reason });
    try {
      await work.stop();
      await closeQueueClient();
      await resetProviders();
      await closeProcessDatabase();
      if (embedded) {
        await embedded.server.close();
        await embedded.held.close();
      }
    } catch (error) {
      log.error('worker did not stop cleanly', errorFields(error));
    }
    process.exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void stop(signal));
  if (process.send) {
    process.on('message', (message: { wake?: string }) => {
      if (typeof message?.wake === 'string') work.wake(message.wake);
    });
    process.once('disconnect', () => void stop('the server that started it went away'));
    process.send({ ready: true });
  }
}
