/**
 * The older name of `npm run worker`: with TEMPORAL_ADDRESS set, the worker executes the
 * catalog's workflows and the shared activities on TEMPORAL_TASK_QUEUE (and the product's other
 * background jobs, which live on the app database's queues).
 *
 *   npm run worker:temporal
 */
import { runWorkerProcess } from '@/lib/worker/process';

runWorkerProcess({ requireTemporal: true }).catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
