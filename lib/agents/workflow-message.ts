import { AGENT_ROLES, type AgentRole } from '@/lib/commands/schema';
import { currentDate } from '@/lib/core/clock';
import { ApiError, found } from '@/lib/core/errors';
import { isUuid } from '@/lib/core/schemas';
import { agentModel } from '@/lib/providers/llm';
import { getConversation, openCommand } from './repo';

/**
 * The agent a workflow's message goes to: the conversation's when one is continued, else the one
 * named (cmo, sales, customerSupport, email, copywriter), else the CMO. A conversation of another
 * site, or an agent that does not exist, is a 400 naming the field.
 */
export async function messageAgent(siteId: string, input: { agent_id?: string; conversation_id?: string }): Promise<AgentRole> {
  const named = input.agent_id === undefined ? undefined : AGENT_ROLES.find((a) => a.toLowerCase() === input.agent_id!.toLowerCase());
  if (input.agent_id !== undefined && !named) {
    throw new ApiError('INVALID_REQUEST', `agent_id must be one of ${AGENT_ROLES.join(', ')}`, {
      issues: [{ path: 'body.agent_id', message: `Agent must be one of: ${AGENT_ROLES.join(', ')}` }],
    });
  }
  if (input.conversation_id === undefined) return named ?? 'cmo';
  const conversation = isUuid(input.conversation_id) ? await getConversation(siteId, input.conversation_id.toLowerCase()) : undefined;
  if (!conversation) {
    throw new ApiError('INVALID_REQUEST', 'conversation_id is not a conversation of this site', {
      issues: [{ path: 'body.conversation_id', message: 'Conversation ID is not a conversation of this site' }],
    });
  }
  if (named && named !== conversation.agent) {
    throw new ApiError('INVALID_REQUEST', `The conversation is with the ${conversation.agent} agent, not ${named}`, {
      issues: [{ path: 'body.agent_id', message: `The conversation is with the ${conversation.agent} agent` }],
    });
  }
  return conversation.agent;
}

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
