/**
 * Next calls `register` once when a server instance starts, in the Node.js server process only
 * (never in the edge runtime, never during `next build`), and serves no request before it
 * resolves. The web process runs no background work itself: unless WORKERS=off it starts the
 * worker as its own process (lib/jobs/child.ts) — with the embedded database, the one that holds
 * it — and waits until it is ready.
 */
export async function register(): Promise<void> {
  // The documented form: the bundler drops this branch from the edge build.
  if (process.env.NEXT_RUNTIME === 'nodejs' && process.env.NEXT_PHASE !== 'phase-production-build') {
    // Key usage is committed in groups that gather for up to a second: a stop writes the last one
    // (it starts on the signal; server.mjs also awaits it before exiting, which `next start` does not).
    const [{ flushKeyUsage }, { onShutdown, runShutdown }] = await Promise.all([import('./lib/keys/usage'), import('./lib/core/shutdown')]);
    onShutdown(flushKeyUsage);
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void runShutdown());
    const [{ limiterWarning }, { log }] = await Promise.all([import('./lib/ratelimit'), import('./lib/core/log')]);
    const warning = limiterWarning();
    if (warning) log.warn(warning);
    // Links the app gives out that would point where this server does not answer (the server entry sets PORT).
    const { publicOriginWarning } = await import('./lib/core/public-url');
    const origin = publicOriginWarning(process.env.HOSTNAME || undefined);
    if (origin) log.warn(origin);
    const { startWorkerBesideWeb } = await import('./lib/jobs/child');
    await startWorkerBesideWeb();
  }
}
