import { ApiError } from '@/lib/core/errors';
import { isUuid } from '@/lib/core/schemas';
import { conversationAgent } from './repo';
import { AGENT_ROLES, type AgentRole } from './schema';

/**
 * The agent a workflow's message goes to: the conversation's when one is continued, else the one
 * named (cmo, sales, customerSupport, email, copywriter), else the CMO. A conversation of another
 * site, or an agent that does not exist, is a 400 naming the field. It lives with the agent roles,
 * below both its users: the workflow catalog checks an agentMessage body with it before the run
 * starts, and the agents open the run's command with the agent it names.
 */
export async function messageAgent(siteId: string, input: { agent_id?: string; conversation_id?: string }): Promise<AgentRole> {
  const named = input.agent_id === undefined ? undefined : AGENT_ROLES.find((a) => a.toLowerCase() === input.agent_id!.toLowerCase());
  if (input.agent_id !== undefined && !named) {
    throw new ApiError('INVALID_REQUEST', `agent_id must be one of ${AGENT_ROLES.join(', ')}`, {
      issues: [{ path: 'body.agent_id', message: `Agent must be one of: ${AGENT_ROLES.join(', ')}` }],
    });
  }
  if (input.conversation_id === undefined) return named ?? 'cmo';
  const agent = isUuid(input.conversation_id) ? await conversationAgent(siteId, input.conversation_id.toLowerCase()) : undefined;
  if (!agent) {
    throw new ApiError('INVALID_REQUEST', 'conversation_id is not a conversation of this site', {
      issues: [{ path: 'body.conversation_id', message: 'Conversation ID is not a conversation of this site' }],
    });
  }
  if (named && named !== agent) {
    throw new ApiError('INVALID_REQUEST', `The conversation is with the ${agent} agent, not ${named}`, {
      issues: [{ path: 'body.agent_id', message: `The conversation is with the ${agent} agent` }],
    });
  }
  return agent;
}
