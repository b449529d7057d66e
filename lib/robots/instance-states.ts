import type { InstanceStatus } from './instance-schema';

/**
 * The state machine of an instance. Each operation names the statuses it may start from, the
 * status held while it works (`via`, so a concurrent operation on the same instance is refused)
 * and where it ends. Anything else is an impossible transition: 409 CONFLICT.
 *
 *   create  → uninstantiated | pending
 *   start   uninstantiated | pending | paused | stopped | error → starting → running (error if the browser fails)
 *   pause   running → stopping → paused        (state and URL saved)
 *   stop    uninstantiated | pending | running | paused | error → stopping → stopped
 *   expire  running → stopping → stopped       (timeout_hours ran out)
 *   lost    running → error                    (the browser went away: crash, restart)
 *   delete  any status but starting | stopping → (record removed, browser closed)
 */
export interface Transition {
  from: readonly InstanceStatus[];
  via: InstanceStatus;
  to: InstanceStatus;
}

export const TRANSITIONS = {
  start: { from: ['uninstantiated', 'pending', 'paused', 'stopped', 'error'], via: 'starting', to: 'running' },
  pause: { from: ['running'], via: 'stopping', to: 'paused' },
  stop: { from: ['uninstantiated', 'pending', 'running', 'paused', 'error'], via: 'stopping', to: 'stopped' },
  expire: { from: ['running'], via: 'stopping', to: 'stopped' },
} as const satisfies Record<string, Transition>;

export type Operation = keyof typeof TRANSITIONS;

/** Statuses in which an operation is under way: the instance cannot be deleted or changed then. */
export const BUSY_STATUSES: readonly InstanceStatus[] = ['starting', 'stopping'];

/**
 * Statuses in which an instance holds a browser or is opening one: what the running-robot limits
 * count (lib/robots/slots.ts). A browser being closed (`stopping`) no longer counts.
 */
export const BROWSER_STATUSES: readonly InstanceStatus[] = ['starting', 'running'];

/** What PUT `status` means: the operation that reaches it. Other target statuses are not set directly. */
export const OPERATION_FOR_STATUS: Partial<Record<InstanceStatus, Operation>> = { running: 'start', paused: 'pause', stopped: 'stop' };
