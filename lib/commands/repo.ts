import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { commands } from '@/lib/db/schema';
import { PROCESSING, type AgentRole, type Command, type CommandError, type CommandStatus, type TokenUsage, type ToolCall } from './schema';

export type CommandRow = typeof commands.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const toCommand = (row: CommandRow): Command => ({
  command_id: row.id,
  site_id: row.siteId,
  agent: row.agent as AgentRole,
  conversation_id: row.conversationId,
  task: row.task,
  description: row.description,
  parameters: row.parameters,
  status: row.status as CommandStatus,
  reply: row.reply,
  tool_calls: row.toolCalls as ToolCall[],
  usage: (row.usage as TokenUsage | null) ?? null,
  error: row.error ?? null,
  created_at: row.createdAt.toISOString(),
  started_at: iso(row.startedAt),
  finished_at: iso(row.finishedAt),
  updated_at: row.updatedAt.toISOString(),
});

const statusFilter = (status: CommandStatus | typeof PROCESSING) =>
  status === PROCESSING ? inArray(commands.status, ['pending', 'running']) : eq(commands.status, status);

export async function listCommands(
  siteId: string,
  filter: { limit: number; offset: number; status?: CommandStatus | typeof PROCESSING },
): Promise<{ items: Command[]; total: number }> {
  const db = await getDb();
  const where = and(eq(commands.siteId, siteId), filter.status ? statusFilter(filter.status) : undefined);
  const [rows, [{ n }]] = await Promise.all([
    db.select().from(commands).where(where).orderBy(desc(commands.createdAt), desc(commands.id)).limit(filter.limit).offset(filter.offset),
    db.select({ n: count() }).from(commands).where(where),
  ]);
  return { items: rows.map(toCommand), total: n };
}

export async function findCommand(siteId: string, commandId: string): Promise<CommandRow | undefined> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(commands)
    .where(and(eq(commands.siteId, siteId), eq(commands.id, commandId)))
    .limit(1);
  return row;
}

export async function getCommand(siteId: string, commandId: string): Promise<Command | undefined> {
  const row = await findCommand(siteId, commandId);
  return row && toCommand(row);
}

// ——— The queue: state transitions, each one conditional on the state it leaves ———

/** Claims one pending command of the site for this process: `running` from `now`. */
export async function claimCommand(siteId: string, commandId: string, now: Date): Promise<CommandRow | undefined> {
  const db = await getDb();
  const [row] = await db
    .update(commands)
    .set({ status: 'running', startedAt: now, updatedAt: now })
    .where(and(eq(commands.siteId, siteId), eq(commands.id, commandId), eq(commands.status, 'pending')))
    .returning();
  return row;
}

/**
 * Claims the oldest pending command of any site. `skip locked` lets several workers (processes)
 * claim side by side without waiting on each other or taking the same row.
 */
export async function claimNextCommand(now: Date): Promise<CommandRow | undefined> {
  const db = await getDb();
  // Select then update in one transaction: the row lock taken by the select is the claim, and
  // exactly one row is claimed (an `update … where id in (select … limit 1)` may be planned to
  // claim several).
  return db.transaction(async (tx) => {
    const [next] = await tx
      .select({ id: commands.id })
      .from(commands)
      .where(eq(commands.status, 'pending'))
      .orderBy(commands.createdAt)
      .limit(1)
      .for('update', { skipLocked: true });
    if (!next) return undefined;
    const [row] = await tx.update(commands).set({ status: 'running', startedAt: now, updatedAt: now }).where(eq(commands.id, next.id)).returning();
    return row;
  });
}

/** The command's status now (a running command checks it for a cancellation); undefined when it is gone. */
export async function commandStatus(siteId: string, commandId: string): Promise<CommandStatus | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({ status: commands.status })
    .from(commands)
    .where(and(eq(commands.siteId, siteId), eq(commands.id, commandId)));
  return row?.status as CommandStatus | undefined;
}

/** Records a failure of a command that has not finished; false when it had already finished. */
export async function failCommand(
  siteId: string,
  commandId: string,
  error: CommandError,
  now: Date,
  partial: { toolCalls?: ToolCall[]; usage?: TokenUsage | null } = {},
): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(commands)
    .set({
      status: 'failed',
      error,
      finishedAt: now,
      updatedAt: now,
      ...(partial.toolCalls ? { toolCalls: partial.toolCalls } : {}),
      ...(partial.usage ? { usage: partial.usage } : {}),
    })
    .where(and(eq(commands.siteId, siteId), eq(commands.id, commandId), inArray(commands.status, ['pending', 'running'])))
    .returning({ id: commands.id });
  return rows.length > 0;
}

/** Cancels a command that has not finished; undefined when there is no such command of the site. */
export async function cancelCommand(siteId: string, commandId: string, now: Date): Promise<CommandRow | undefined> {
  const db = await getDb();
  await db
    .update(commands)
    .set({ status: 'cancelled', finishedAt: now, updatedAt: now })
    .where(and(eq(commands.siteId, siteId), eq(commands.id, commandId), inArray(commands.status, ['pending', 'running'])));
  return findCommand(siteId, commandId);
}

/**
 * A command still `running` whose process stopped (crash, restart) becomes `failed` with code
 * INTERRUPTED rather than staying `running` forever; it is not run again, since its tool calls
 * may already have acted. Answers whether this call changed it.
 */
export async function failInterrupted(siteId: string, commandId: string, now: Date): Promise<boolean> {
  return failRunning(siteId, commandId, now, {
    code: 'INTERRUPTED',
    message: 'interrupted: the process running this command stopped before it finished',
  });
}

async function failRunning(siteId: string, commandId: string, now: Date, error: CommandError): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(commands)
    .set({ status: 'failed', error, finishedAt: now, updatedAt: now })
    .where(and(eq(commands.siteId, siteId), eq(commands.id, commandId), eq(commands.status, 'running')))
    .returning({ id: commands.id });
  return rows.length > 0;
}
