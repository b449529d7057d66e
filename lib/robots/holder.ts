import { randomUUID } from 'node:crypto';
import { processState } from '@/lib/core/process-state';
import { holdHolderLock } from './instances-repo';

/**
 * This process as a holder of robot browsers. Browsers live in the process that started them; the
 * database knows each instance's holder (`holder_id`), and a holder is alive exactly while it holds
 * its lock: a session advisory lock (lib/db/session-locks.ts) taken at its first robot start and
 * kept by its connection. When the process ends — crash, kill, restart, scaled away — its session
 * ends, the lock goes with it, and its browsers no longer count toward the running-robot limits
 * (./slots.ts). No timer keeps it alive.
 */
const holder = processState<{ id: string }>('robots.holder', () => ({ id: randomUUID() }));

/** This process's holder id (one per process, new at every start). */
export const thisHolder = (): string => holder.id;

/** Marks this process a live holder for as long as it runs (idempotent). */
export async function holdBrowsers(): Promise<void> {
  await holdHolderLock(thisHolder());
}
