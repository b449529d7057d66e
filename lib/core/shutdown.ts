import { processState } from './process-state';

/**
 * Work a stopping process finishes before it exits (the last group of key usage). The registry is
 * the process state's `shutdown` slot: Next's bundle, the fast path's bundle and `server.mjs`
 * (plain JavaScript, which awaits it on SIGTERM/SIGINT before exiting) share it.
 */
const work = () => processState('shutdown', () => new Set<() => Promise<unknown>>());

export function onShutdown(task: () => Promise<unknown>): void {
  work().add(task);
}

/** Runs every registered piece of work; one that fails does not keep the others from finishing. */
export async function runShutdown(): Promise<void> {
  await Promise.allSettled([...work()].map((task) => task()));
}
