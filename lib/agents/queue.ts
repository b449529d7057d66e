import { currentDate } from '@/lib/core/clock';
import { config } from '@/lib/core/config';
import { errorFields, log } from '@/lib/core/log';
import { defineProvider, provider } from '@/lib/core/providers';
import { claimNextCommand, failExpiredLeases, type CommandRow } from '@/lib/commands/repo';
import { leaseEnd, runClaimed } from './execute';

/**
 * Where a created command goes to be run outside the request that created it. The port is one
 * function so another runner (a workflow engine) can take the place of the database queue.
 *
 * The database queue: the command row is the queue entry. A worker in the app's Node process
 * claims `pending` rows (`for update skip locked`, so several processes can share the work),
 * runs them with a renewed lease, and on start (and on each pass) marks `running` rows whose
 * lease expired as failed/INTERRUPTED — the process that ran them is gone.
 */
export interface CommandDispatcher {
  dispatch(siteId: string, commandId: string): Promise<void>;
}

declare module '@/lib/core/providers' {
  interface ProviderMap {
    commandDispatcher: CommandDispatcher;
  }
}

/** How often an idle worker looks for commands another process queued. */
const IDLE_POLL_MS = 2_000;

type WorkerState = {
  stopping: boolean;
  active: Set<Promise<void>>;
  /** Set by a wake-up that came while the worker was not asleep, so it is not lost. */
  kicked: boolean;
  wake: () => void;
  sleeping?: () => void;
  loop?: Promise<void>;
};
const KEY = Symbol.for('sgp.commandWorker');
const g = globalThis as { [KEY]?: WorkerState };

async function claimNext(): Promise<CommandRow | undefined> {
  return claimNextCommand(currentDate(), leaseEnd());
}

function track(state: WorkerState, row: CommandRow): void {
  const run = runClaimed(row)
    .catch((error) => log.error('command run failed', { command_id: row.id, ...errorFields(error) }))
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
      await failExpiredLeases(currentDate());
      while (!state.stopping && state.active.size < config().COMMAND_CONCURRENCY) {
        const row = await claimNext();
        if (!row) break;
        track(state, row);
      }
    } catch (error) {
      log.error('command worker pass failed', errorFields(error));
    }
    if (state.stopping || state.kicked) continue;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, IDLE_POLL_MS);
      timer.unref?.();
      state.sleeping = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    state.sleeping = undefined;
  }
}

/** Starts the in-process worker (once per process). */
export function startCommandWorker(): void {
  if (g[KEY] && !g[KEY].stopping) return;
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
  state.loop = workLoop(state);
}

/** Stops claiming and waits for the commands in progress to finish. */
export async function stopCommandWorker(): Promise<void> {
  const state = g[KEY];
  if (!state) return;
  state.stopping = true;
  state.wake();
  await state.loop;
  await Promise.all(state.active);
  g[KEY] = undefined;
}

/**
 * Runs every pending command now, in this call, until none is left (tests and scripts use it
 * instead of a background worker). Returns how many ran.
 */
export async function drainCommands(concurrency = 1): Promise<number> {
  await failExpiredLeases(currentDate());
  let ran = 0;
  const lane = async () => {
    for (let row = await claimNext(); row; row = await claimNext()) {
      await runClaimed(row);
      ran++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return ran;
}

defineProvider('commandDispatcher', () => ({
  async dispatch() {
    // The row is already queued; the worker of this process picks it up now rather than at its next poll.
    if (!config().COMMAND_WORKER) return;
    startCommandWorker();
    g[KEY]?.wake();
  },
}));

/** Hands a created (pending) command to whoever runs commands outside the request. */
export const dispatchCommand = (siteId: string, commandId: string): Promise<void> => provider('commandDispatcher').dispatch(siteId, commandId);

/**
 * At server start (instrumentation): with a configured model and the worker switched on, start
 * the worker, which first fails the commands a previous process left running. Without a model no
 * command can be created, so there is nothing to run.
 */
export function bootCommandWorker(): void {
  const c = config();
  if (c.COMMAND_WORKER && c.LLM_BASE_URL && c.LLM_MODEL) startCommandWorker();
}
