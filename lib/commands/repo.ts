import { and, count, desc, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { commands } from '@/lib/db/schema';
import type { Command, CommandStatus, CreateCommandInput } from './schema';

type CommandRow = typeof commands.$inferSelect;

const toCommand = (row: CommandRow): Command => ({
  command_id: row.id,
  site_id: row.siteId,
  task: row.task,
  description: row.description,
  parameters: row.parameters,
  status: row.status as CommandStatus,
  result: row.result ?? null,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

export async function createCommand(siteId: string, input: CreateCommandInput): Promise<Command> {
  const db = await getDb();
  const [row] = await db
    .insert(commands)
    .values({ siteId, task: input.task, description: input.description, parameters: input.parameters })
    .returning();
  return toCommand(row);
}

export async function listCommands(
  siteId: string,
  filter: { limit: number; offset: number; status?: CommandStatus },
): Promise<{ items: Command[]; total: number }> {
  const db = await getDb();
  const where = and(eq(commands.siteId, siteId), filter.status ? eq(commands.status, filter.status) : undefined);
  const [rows, [{ n }]] = await Promise.all([
    db.select().from(commands).where(where).orderBy(desc(commands.createdAt), desc(commands.id)).limit(filter.limit).offset(filter.offset),
    db.select({ n: count() }).from(commands).where(where),
  ]);
  return { items: rows.map(toCommand), total: n };
}

export async function getCommand(siteId: string, commandId: string): Promise<Command | undefined> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(commands)
    .where(and(eq(commands.siteId, siteId), eq(commands.id, commandId)))
    .limit(1);
  return row && toCommand(row);
}
