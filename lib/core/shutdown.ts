/**
 * Work a stopping process finishes before it exits (the last group of key usage). The registry is
 * process-wide on globalThis under a `Symbol.for` key: Next's bundle, the fast path's bundle and
 * `server.mjs` (plain JavaScript, which awaits it on SIGTERM/SIGINT before exiting) share it.
 */
const KEY = Symbol.for('sgp.shutdown');
const holder = globalThis as { [KEY]?: Set<() => Promise<unknown>> };

export function onShutdown(work: () => Promise<unknown>): void {
  (holder[KEY] ??= new Set()).add(work);
}

/** Runs every registered piece of work; one that fails does not keep the others from finishing. */
export async function runShutdown(): Promise<void> {
  await Promise.allSettled([...(holder[KEY] ?? [])].map((work) => work()));
}
