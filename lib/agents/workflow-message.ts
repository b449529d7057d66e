import { messageAgent } from '@/lib/commands/message-agent';
import type { AgentRole } from '@/lib/commands/schema';
import { currentDate } from '@/lib/core/clock';
import { found } from '@/lib/core/errors';
import { agentModel } from '@/lib/providers/llm';
import { openCommand } from './repo';

/**
 * An agentMessage run's message, as the agent routes record one: a command of the agent in a
 * conversation (a new one, or the one continued) with the message as its user turn. The run's
 * next step carries the command out, so no second run is started for it. Without a model:
 * MODEL_NOT_CONFIGURED, nothing written.
 */
export async function openWorkflowMessage(
  siteId: string,
  input: { agent_id?: string; conversation_id?: string; message: string },
): Promise<{ command_id: string; conversation_id: string; agent: AgentRole }> {
  agentModel();
  const agent = await messageAgent(siteId, input);
  const { command, conversationId } = await openCommand(siteId, {
    agent,
    conversationId: input.conversation_id?.toLowerCase(),
    userContent: input.message,
    task: 'message',
    description: input.message.slice(0, 10_000),
    parameters: { message: input.message, ...(input.conversation_id ? { conversation_id: input.conversation_id } : {}) },
    keyId: null,
    keyScopes: ['read', 'write'],
    now: currentDate(),
  });
  found(command, 'Command');
  return { command_id: command.id, conversation_id: conversationId, agent };
}
