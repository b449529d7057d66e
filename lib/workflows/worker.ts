import { config } from '@/lib/core/config';
import { errorFields, log } from '@/lib/core/log';
import { resetProviders } from '@/lib/core/providers';
import { startWorkflowWorker } from './engines';

/**
 * The workflow worker's life cycle, shared by the app (Next's instrumentation hook) and the
 * stand-alone process (`npm run worker`): start executing runs; on SIGTERM/SIGINT hand the runs in
 * flight back to the queue and stop.
 */
let started: Promise<void> | undefined;

export function runWorker(options: { ownProcess: boolean }): Promise<void> {
  started ??= (async () => {
    const engine = await startWorkflowWorker();
    log.info('workflow worker started', { engine: engine.kind });
    // Inside the app, Next owns the signals; a run cut short there is resumed by the next worker.
    if (!options.ownProcess) return;
    const stop = () => {
      void resetProviders().finally(() => process.exit(0));
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  })();
  return started;
}

/** The app process runs the worker unless WORKFLOW_WORKER_IN_APP=false; a failure is logged, not fatal. */
export function runWorkerInApp(): void {
  if (!config().WORKFLOW_WORKER_IN_APP) return;
  runWorker({ ownProcess: false }).catch((error) => log.error('workflow worker did not start', errorFields(error)));
}
