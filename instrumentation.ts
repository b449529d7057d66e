/**
 * Next calls `register` once when a server instance starts. The workflow worker runs inside the
 * app's Node process (not the edge runtime, not during `next build`); `npm run worker` runs it
 * as its own process instead (WORKFLOW_WORKER_IN_APP=false).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  const { runWorkerInApp } = await import('./lib/workflows/worker');
  runWorkerInApp();
}
