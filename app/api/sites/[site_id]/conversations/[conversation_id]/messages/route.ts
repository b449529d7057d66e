import { AgentAcceptedSchema, conversationPathSchema, ownerMessageBodySchema } from '@/lib/agents/schema';
import { messageRequest, siteConversation, siteOwnerCaller } from '@/lib/agents/service';
import { answerAgentRequest, STREAMING } from '@/lib/http/agent-route';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';

// POST /api/sites/{site_id}/conversations/{conversation_id}/messages — the site's owner writes in a conversation with an agent
export const POST = defineRoute({
  summary: "Send a message in a conversation (the site's owner)",
  description:
    "The signed-in owner of the site continues one of its conversations: the message goes to the conversation's agent, which is offered every tool of the site. Another site's conversation is a 404." +
    STREAMING,
  tags: ['Agents'],
  auth: policies.owner,
  permission: 'crm.write',
  params: conversationPathSchema,
  body: ownerMessageBodySchema,
  response: AgentAcceptedSchema,
  status: 202,
  errors: ['NOT_FOUND', 'MODEL_NOT_CONFIGURED', 'WORKFLOW_EXECUTION_ERROR'],
  handler: async ({ req, siteId, params, body }) => {
    const conversation = await siteConversation(siteId!, params.conversation_id);
    const request = messageRequest(conversation.agent, { site_id: siteId!, conversation_id: conversation.conversation_id, message: body.message });
    return answerAgentRequest(req, siteOwnerCaller(siteId!), request);
  },
});
