import { currentDate, now } from '@/lib/core/clock';
import { config } from '@/lib/core/config';
import { errorFields, log } from '@/lib/core/log';
import { attemptDelivery } from './deliver';
import { onEventRecorded } from './events';
import { claimDueDelivery, type ClaimedDelivery } from './repo';

/**
 * The delivery worker: the delivery rows are the queue. It claims due rows under a lease
 * (`for update skip locked`, so several processes share the work), sends up to
 * WEBHOOK_CONCURRENCY at once, and polls every WEBHOOK_POLL_MS — sooner when this process records
 * an event. A delivery whose worker died is claimed again once its lease ran out.
 */
type WorkerState = { stopping: boolean; active: Set<Promise<void>>; kicked: boolean; wake: () => void; sleeping?: () => void; loop?: Promise<void>; unlisten?: () => void };
const KEY = Symbol.for('sgp.webhookWorker');
const g = globalThis as { [KEY]?: WorkerState };

/** Longer than one attempt can take (its timeout, then recording it), so nobody takes a delivery still in flight. */
const leaseMs = () => Math.max(config().WEBHOOK_LEASE_SECONDS * 1000, config().WEBHOOK_TIMEOUT_MS + 5000);

function track(state: WorkerState, claimed: ClaimedDelivery): void {
  const run = attemptDelivery(claimed)
    .then(() => undefined)
    .catch((error) => log.error('webhook delivery failed', { delivery_id: claimed.delivery.id, ...errorFields(error) }))
    .finally(() => {
      state.active.delete(run);
      state.wake();
    });
  state.active.add(run);
}

async function workLoop(state: WorkerState): Promise<void> {
  while (!state.stopping) {
    state.kicked = false;
    try {
      const c = config();
      while (!state.stopping && state.active.size < c.WEBHOOK_CONCURRENCY) {
        const claimed = await claimDueDelivery(currentDate(), new Date(now() + leaseMs()));
        if (!claimed) break;
        track(state, claimed);
      }
    } catch (error) {
      log.error('webhook worker pass failed', errorFields(error));
    }
    if (state.stopping || state.kicked) continue;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, config().WEBHOOK_POLL_MS);
      timer.unref?.();
      state.sleeping = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    state.sleeping = undefined;
  }
}

/** Starts the worker in this process (idempotent). */
export function startDeliveryWorker(): void {
  if (g[KEY]) return;
  const state: WorkerState = {
    stopping: false,
    active: new Set(),
    kicked: false,
    wake: () => {
      state.kicked = true;
      state.sleeping?.();
    },
  };
  g[KEY] = state;
  state.unlisten = onEventRecorded(() => state.wake());
  state.loop = workLoop(state);
}

/** Stops claiming and waits for the deliveries in flight. */
export async function stopDeliveryWorker(): Promise<void> {
  const state = g[KEY];
  if (!state) return;
  state.stopping = true;
  state.unlisten?.();
  state.sleeping?.();
  await state.loop;
  await Promise.all([...state.active]);
  g[KEY] = undefined;
}

/** The app process and `npm run worker` run it unless WEBHOOK_WORKER=false; a failure is logged. */
export function bootDeliveryWorker(): void {
  if (!config().WEBHOOK_WORKER) return;
  try {
    startDeliveryWorker();
    log.info('webhook delivery worker started');
  } catch (error) {
    log.error('webhook delivery worker did not start', errorFields(error));
  }
}
