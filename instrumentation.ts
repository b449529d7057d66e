/**
 * Runs once when the server starts. Agent commands are queued in the database; the worker that
 * runs them lives in the Node.js server process (never in the edge runtime, never at build).
 */
export async function register(): Promise<void> {
  // The documented form: the bundler drops this branch from the edge build.
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { bootCommandWorker } = await import('./lib/agents/queue');
    bootCommandWorker();
  }
}
