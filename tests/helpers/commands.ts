import { sql } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { engineDispatcher } from '@/lib/agents/dispatch';
import { onCommandChange } from '@/lib/commands/changes';
import { overrideProviders } from '@/lib/core/providers';
import { getDb } from '@/lib/db/client';
import { startBackgroundWork } from '@/lib/worker';

/**
 * Agent suites: a created command goes to the workflow engine as in production (the engine
 * dispatcher: a run of the agent command workflow, queued), and runs when the suite says so
 * (`runCommands`), by the product's worker — so a suite can still see a command `pending` first.
 */
export function useCommandRuns(): void {
  let restore: (() => void) | undefined;
  beforeAll(() => {
    restore = overrideProviders({ commandDispatcher: engineDispatcher });
  });
  afterAll(() => restore?.());
}

const FINISHED = "('completed', 'failed', 'cancelled')";

async function commandIds(where: string, ids?: string[]): Promise<string[]> {
  const db = await getDb();
  const result = (await db.execute(
    ids
      ? sql`select id from commands where ${sql.raw(where)} and id in ${ids}`
      : sql`select id from commands where ${sql.raw(where)} order by created_at`,
  )) as unknown as { rows: { id: string }[] };
  return result.rows.map((r) => r.id);
}

/**
 * Runs the queued work until every command pending now has finished, with a worker started for
 * the purpose (and stopped again); answers how many that was. Waits on the commands' changes as
 * they commit, never on a clock (up to `timeoutMs`, then it fails saying which are left).
 */
export async function runCommands(timeoutMs = 20_000): Promise<number> {
  const pending = await commandIds("status = 'pending'");
  if (pending.length === 0) return 0;
  let wake = () => {};
  const stopListening = await onCommandChange(() => wake());
  const worker = await startBackgroundWork();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  try {
    for (;;) {
      const changed = new Promise<void>((resolve) => (wake = resolve));
      const finished = await commandIds(`status in ${FINISHED}`, pending);
      if (finished.length === pending.length) return pending.length;
      if (deadline.signal.aborted) {
        throw new Error(`commands still unfinished after ${timeoutMs} ms: ${pending.filter((id) => !finished.includes(id)).join(', ')}`);
      }
      await Promise.race([changed, new Promise((resolve) => deadline.signal.addEventListener('abort', resolve, { once: true }))]);
    }
  } finally {
    clearTimeout(timer);
    stopListening();
    await worker.stop();
  }
}
