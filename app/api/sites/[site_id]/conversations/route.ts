import { AgentAcceptedSchema, ownerConversationBodySchema } from '@/lib/agents/schema';
import { messageRequest, siteOwnerCaller } from '@/lib/agents/service';
import { answerAgentRequest, STREAMING } from '@/lib/http/agent-route';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { sitePathSchema } from '@/lib/sites/schema';

// POST /api/sites/{site_id}/conversations — the site's owner starts a conversation with one of its agents
export const POST = defineRoute({
  summary: "Start a conversation with an agent (the site's owner)",
  description:
    'The signed-in owner of the site (or a member whose role writes) starts a new conversation with the agent named in `agent`; the agent is offered every tool of the site. Continue it with `POST /api/sites/{site_id}/conversations/{conversation_id}/messages`.' +
    STREAMING,
  tags: ['Agents'],
  auth: policies.owner,
  permission: 'crm.write',
  params: sitePathSchema,
  body: ownerConversationBodySchema,
  response: AgentAcceptedSchema,
  status: 202,
  errors: ['MODEL_NOT_CONFIGURED', 'WORKFLOW_EXECUTION_ERROR'],
  handler: async ({ req, siteId, body }) =>
    answerAgentRequest(req, siteOwnerCaller(siteId!), messageRequest(body.agent, { site_id: siteId!, message: body.message })),
});
