import { and, desc, eq, inArray } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { commands, conversations } from '@/lib/db/schema';
import { findOfSite, pageOf } from '@/lib/db/site-scoped';
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
  const where = and(eq(commands.siteId, siteId), filter.status ? statusFilter(filter.status) : undefined);
  const { rows, total } = await pageOf(commands, where, [desc(commands.createdAt), desc(commands.id)], filter);
  return { items: rows.map(toCommand), total };
}

export async function findCommand(siteId: string, commandId: string): Promise<CommandRow | undefined> {
  return findOfSite(commands, siteId, commandId);
}

export async function getCommand(siteId: string, commandId: string): Promise<Command | undefined> {
  const row = await findCommand(siteId, commandId);
  return row && toCommand(row);
}

/** The agent of the site's conversation; undefined for a conversation of another site or none. */
export async function conversationAgent(siteId: string, conversationId: string): Promise<AgentRole | undefined> {
  const where = and(eq(conversations.siteId, siteId), eq(conversations.id, conversationId));
  const [row] = await (await getDb()).select({ agent: conversations.agent }).from(conversations).where(where);
  return row?.agent as AgentRole | undefined;
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
