/**
 * The Temporal worker as its own process: executes the catalog's workflows and the shared
 * activities on TEMPORAL_TASK_QUEUE of TEMPORAL_NAMESPACE at TEMPORAL_ADDRESS.
 *
 *   npm run worker:temporal
 *
 * Run as many as the load needs; each drains its in-flight activities on SIGTERM/SIGINT before
 * it exits. The activities reach the app's database, so it must be the shared Postgres
 * (DATABASE_URL): PGlite allows one process per data directory.
 */
import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import { config } from '@/lib/core/config';
import { log } from '@/lib/core/log';
import { database } from '@/lib/db/client';
import { createActivities } from '@/lib/workflows/activities-impl';
import { temporalSettings } from '@/lib/workflows/engines/temporal/settings';
import { createTemporalWorker } from '@/lib/workflows/engines/temporal/worker';

const LEVELS: Record<string, LogLevel> = { debug: 'DEBUG', info: 'INFO', warn: 'WARN', error: 'ERROR', silent: 'ERROR' };
const WRITE = { TRACE: log.debug, DEBUG: log.debug, INFO: log.info, WARN: log.warn, ERROR: log.error } as const;

async function main() {
  const cfg = config();
  const settings = temporalSettings(cfg);
  if (!settings) throw new Error('TEMPORAL_ADDRESS is not set: the Temporal worker has no cluster to serve');
  if (!cfg.DATABASE_URL) throw new Error('DATABASE_URL is not set: the worker shares the app database, and PGlite serves one process only');

  // The SDK's own logs go through the app's JSON log; signals are handled below.
  Runtime.install({
    logger: new DefaultLogger(LEVELS[cfg.LOG_LEVEL], (entry) => WRITE[entry.level](entry.message, entry.meta)),
    shutdownSignals: [],
  });
  const db = await database();
  const worker = await createTemporalWorker({ settings, activities: createActivities() });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      log.info('temporal worker: stopping, finishing in-flight tasks', { signal });
      worker.shutdown();
    });
  }
  log.info('temporal worker: polling', { address: settings.address, namespace: settings.namespace, taskQueue: settings.taskQueue });
  try {
    await worker.run();
  } finally {
    await db.close();
  }
  log.info('temporal worker: stopped');
}

main().catch((error) => {
  log.error('temporal worker failed', { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
