/**
 * Next calls `register` once when a server instance starts, in the Node.js server process only
 * (never in the edge runtime, never during `next build`). It starts the workers that live in the
 * app process: the workflow worker (unless WORKFLOW_WORKER_IN_APP=false, when `npm run worker`
 * runs it as its own process; agent commands run on it), the sweep that records commands left
 * running by a process that died as interrupted, and the webhook delivery worker.
 */
export async function register(): Promise<void> {
  // The documented form: the bundler drops this branch from the edge build.
  if (process.env.NEXT_RUNTIME === 'nodejs' && process.env.NEXT_PHASE !== 'phase-production-build') {
    const [{ runWorkerInApp }, { sweepInterruptedCommands }, { bootDeliveryWorker }] = await Promise.all([
      import('./lib/workflows/worker'),
      import('./lib/agents/execute'),
      import('./lib/webhooks/worker'),
    ]);
    runWorkerInApp();
    sweepInterruptedCommands();
    bootDeliveryWorker();
  }
}
