/**
 * The workflow worker as its own process: executes the runs the API starts, and sends webhook
 * deliveries (unless WEBHOOK_WORKER=false).
 *
 *   npm run worker
 *
 * Uses the configured database (DATABASE_URL, else PGlite under DATA_DIR — PGlite allows one
 * process per data directory, so with PGlite keep the worker in the app instead). Set
 * WORKFLOW_WORKER_IN_APP=false on the app when workers run separately.
 */
import { bootDeliveryWorker } from '@/lib/webhooks/worker';
import { runWorker } from '@/lib/workflows/worker';

bootDeliveryWorker();
runWorker({ ownProcess: true }).catch((error) => {
  console.error(error);
  process.exit(1);
});
