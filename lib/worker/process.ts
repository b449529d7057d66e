import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import { config } from '@/lib/core/config';
import { errorFields, log } from '@/lib/core/log';
import { resetProviders } from '@/lib/core/providers';
import { database, embeddedDataDir, openDatabase, openMigratedDatabase, useDatabase, type Database } from '@/lib/db/client';
import type { EmbeddedServer } from '@/lib/db/embedded-server';
import { closeQueueClient } from '@/lib/jobs/queue';
import { temporalSettings } from '@/lib/workflows/engines/temporal/settings';
import { startBackgroundWork } from './index';

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

export async function runWorkerProcess(o: { requireTemporal?: boolean } = {}): Promise<void> {
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
    // The SDK's own logs go through the app's JSON log; signals are handled below.
    Runtime.install({ logger: new DefaultLogger(LEVELS[cfg.LOG_LEVEL], (entry) => WRITE[entry.level](entry.message, entry.meta)), shutdownSignals: [] });
  }

  let embedded: { held: Database; server: EmbeddedServer } | undefined;
  if (serveAt) {
    const held = await openMigratedDatabase({ kind: 'pglite', dataDir: embeddedDataDir(), sharedBuffersMb: cfg.PGLITE_SHARED_BUFFERS_MB });
    const server = await held.serve!(serveAt);
    embedded = { held, server };
    // This process's own queries take their turn on the socket like the web process's.
    useDatabase(await openDatabase({ kind: 'pglite-socket', socketDir: serveAt, poolMax: 4 }));
  }
  await database();
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
      await (await database()).close();
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
