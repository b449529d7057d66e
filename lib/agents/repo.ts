import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { AgentRole, TokenUsage, ToolCall } from '@/lib/commands/schema';
import type { CommandRow } from '@/lib/commands/service';
import { ApiError, notFound } from '@/lib/core/errors';
import { getDb, type Db } from '@/lib/db/client';
import { commands, conversationMessages, conversations } from '@/lib/db/schema';
import type { Conversation, ConversationMessage } from './schema';

type ConversationRow = typeof conversations.$inferSelect;
type MessageRow = typeof conversationMessages.$inferSelect;

const toConversation = (row: ConversationRow): Conversation => ({
  conversation_id: row.id,
  site_id: row.siteId,
  agent: row.agent as AgentRole,
  title: row.title,
  lead_id: row.leadId,
  visitor_id: row.visitorId,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

const toMessage = (row: MessageRow): ConversationMessage => ({
  message_id: row.id,
  role: row.role,
  content: row.content,
  tool_calls: row.toolCalls as ToolCall[],
  command_id: row.commandId,
  created_at: row.createdAt.toISOString(),
});

const titleOf = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 120);

export interface OpenCommand {
  agent: AgentRole;
  /** Continue this conversation of the site (404 when it is not one); a new one otherwise. */
  conversationId?: string;
  leadId?: string;
  visitorId?: string;
  /** The user's turn as the agent reads it. */
  userContent: string;
  /** Title of a new conversation (default: the start of the user's turn). */
  title?: string;
  task: string;
  description: string;
  parameters: Record<string, unknown>;
  keyId: string | null;
  keyScopes: string[];
  now: Date;
  /** Claim the command for this process at once (a streamed answer runs it in the request). */
  claim?: boolean;
  /** Written with the command, in its transaction (the deadline of a claimed command). */
  also?: (tx: Db, command: CommandRow) => Promise<unknown>;
}

/**
 * Creates the command, the user's message and (when none is given) the conversation in one
 * transaction: a command always has its message, and a refused conversation writes nothing.
 */
export async function openCommand(siteId: string, o: OpenCommand): Promise<{ command: CommandRow; conversationId: string }> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    let conversationId = o.conversationId;
    if (conversationId) {
      const [existing] = await tx
        .select()
        .from(conversations)
        .where(and(eq(conversations.siteId, siteId), eq(conversations.id, conversationId)))
        .for('update')
        .limit(1);
      if (!existing) throw notFound('Conversation');
      if (existing.agent !== o.agent) {
        throw new ApiError('INVALID_REQUEST', `Conversation ${conversationId} is with the ${existing.agent} agent, not ${o.agent}`);
      }
      await tx.update(conversations).set({ updatedAt: o.now }).where(eq(conversations.id, conversationId));
    } else {
      const [created] = await tx
        .insert(conversations)
        .values({
          siteId,
          agent: o.agent,
          title: titleOf(o.title ?? o.userContent),
          leadId: o.leadId ?? null,
          visitorId: o.visitorId ?? null,
          createdAt: o.now,
          updatedAt: o.now,
        })
        .returning({ id: conversations.id });
      conversationId = created.id;
    }
    const commandId = randomUUID();
    const [command] = await tx
      .insert(commands)
      .values({
        id: commandId,
        siteId,
        agent: o.agent,
        conversationId,
        task: o.task,
        description: o.description,
        parameters: o.parameters,
        keyId: o.keyId,
        keyScopes: o.keyScopes,
        status: o.claim ? 'running' : 'pending',
        startedAt: o.claim ? o.now : null,
        createdAt: o.now,
        updatedAt: o.now,
      })
      .returning();
    await tx.insert(conversationMessages).values({ siteId, conversationId, commandId, role: 'user', content: o.userContent, createdAt: o.now });
    await o.also?.(tx, command);
    return { command, conversationId };
  });
}

/** Older commands have no conversation yet: one is made for them (with their user turn) when they run. */
export async function attachConversation(siteId: string, command: CommandRow, userContent: string, now: Date): Promise<string> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(conversations)
      .values({ siteId, agent: command.agent, title: titleOf(userContent), createdAt: now, updatedAt: now })
      .returning({ id: conversations.id });
    await tx
      .insert(conversationMessages)
      .values({ siteId, conversationId: created.id, commandId: command.id, role: 'user', content: userContent, createdAt: now });
    await tx
      .update(commands)
      .set({ conversationId: created.id })
      .where(and(eq(commands.siteId, siteId), eq(commands.id, command.id)));
    return created.id;
  });
}

/**
 * Records the reply: the command becomes `completed` and the assistant's message is added, in one
 * transaction. False (nothing written) when the command was no longer running (cancelled, or
 * failed as interrupted while this process was cut off).
 */
export async function completeCommand(
  siteId: string,
  commandId: string,
  conversationId: string,
  outcome: { reply: string; toolCalls: ToolCall[]; usage: TokenUsage },
  now: Date,
): Promise<boolean> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const done = await tx
      .update(commands)
      .set({ status: 'completed', reply: outcome.reply, toolCalls: outcome.toolCalls, usage: outcome.usage, finishedAt: now, updatedAt: now })
      .where(and(eq(commands.siteId, siteId), eq(commands.id, commandId), eq(commands.status, 'running')))
      .returning({ id: commands.id });
    if (done.length === 0) return false;
    await tx
      .insert(conversationMessages)
      .values({ siteId, conversationId, commandId, role: 'assistant', content: outcome.reply, toolCalls: outcome.toolCalls, createdAt: now });
    await tx
      .update(conversations)
      .set({ updatedAt: now })
      .where(and(eq(conversations.siteId, siteId), eq(conversations.id, conversationId)));
    return true;
  });
}

export async function listConversations(
  siteId: string,
  f: { limit: number; offset: number; agent?: AgentRole },
): Promise<{ items: Conversation[]; total: number }> {
  const db = await getDb();
  const where = and(eq(conversations.siteId, siteId), f.agent ? eq(conversations.agent, f.agent) : undefined);
  const [rows, [{ n }]] = await Promise.all([
    db.select().from(conversations).where(where).orderBy(desc(conversations.updatedAt), desc(conversations.id)).limit(f.limit).offset(f.offset),
    db.select({ n: count() }).from(conversations).where(where),
  ]);
  return { items: rows.map(toConversation), total: n };
}

export async function getConversation(
  siteId: string,
  conversationId: string,
): Promise<(Conversation & { messages: ConversationMessage[] }) | undefined> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.siteId, siteId), eq(conversations.id, conversationId)))
    .limit(1);
  if (!row) return undefined;
  const messages = await db
    .select()
    .from(conversationMessages)
    .where(and(eq(conversationMessages.siteId, siteId), eq(conversationMessages.conversationId, conversationId)))
    .orderBy(asc(conversationMessages.seq));
  return { ...toConversation(row), messages: messages.map(toMessage) };
}
