import { randomUUID } from 'node:crypto';
import { errorFields, log } from '@/lib/core/log';
import { recordHolderSeen } from '@/lib/instances/repo';

/**
 * This process as a holder of robot browsers. Browsers live in the process that started them; the
 * database knows each instance's holder (`holder_id`) and when each holder was last seen. Once
 * this process has claimed a start it refreshes its `seen_at` every HOLDER_BEAT_MS; a holder not
 * seen for HOLDER_STALE_SECONDS is gone (crashed, restarted, scaled away) and the browsers it held
 * with it, so the running-robot limits stop counting them (lib/robots/slots.ts).
 */
const HOLDER_BEAT_MS = 30_000;
export const HOLDER_STALE_SECONDS = 90;

const holderId = randomUUID();
let beating: NodeJS.Timeout | undefined;

/** This process's holder id (one per process, new at every start). */
export const thisHolder = (): string => holderId;

/** Keeps this process seen while it lives; started once, by its first robot start. */
export function keepHolderSeen(): void {
  if (beating) return;
  beating = setInterval(() => {
    recordHolderSeen(holderId).catch((error: unknown) => log.warn('robot holder heartbeat failed', errorFields(error)));
  }, HOLDER_BEAT_MS);
  beating.unref();
}
