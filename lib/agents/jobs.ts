import { failInterrupted } from '@/lib/commands/service';
import { currentDate, now } from '@/lib/core/clock';
import { config } from '@/lib/core/config';
import type { Db } from '@/lib/db/client';
import { defineJob } from '@/lib/jobs/define';
import { enqueue } from '@/lib/jobs/queue';

/**
 * The deadline of a running command. A command runs for at most LLM_TIMEOUT_MS (then it fails
 * with TIMEOUT by itself); one still `running` a minute after that belongs to a process that
 * stopped — a streamed reply cut off with its web process, or a run whose worker died for good —
 * and is recorded as failed/INTERRUPTED, never run again (its tool calls may already have acted).
 */
const GRACE_MS = 60_000;

export const commandDeadline = defineJob<{ siteId: string; commandId: string }>({
  name: 'command-deadline',
  options: () => ({ expireInSeconds: 60, retryLimit: 5 }),
  async run({ siteId, commandId }) {
    await failInterrupted(siteId, commandId, currentDate());
  },
});

/** Queues the deadline of a command that starts running now (with `tx`, in the transaction that claims it). */
export const scheduleCommandDeadline = (siteId: string, commandId: string, tx?: Db) =>
  enqueue(commandDeadline, { siteId, commandId }, { startAfter: new Date(now() + config().LLM_TIMEOUT_MS + GRACE_MS), ...(tx ? { tx } : {}) });
