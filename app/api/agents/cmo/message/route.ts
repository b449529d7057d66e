import { agentMessageBodySchema } from '@/lib/agents/schema';
import { messageRequest } from '@/lib/agents/service';
import { agentRoute } from '@/lib/http/agent-route';

// POST /api/agents/cmo/message — a message to the CMO agent
export const POST = agentRoute({
  summary: 'Send a message to the CMO agent',
  description:
    "Marketing strategy, campaigns, segments and goals for the site; the agent may read and change the site's leads, segments, requirements and settings through its tools. Its system prompt is built from the site's settings (about, products, goals, brand voice and tone, forbidden words…). With `lead_id` the lead's details are part of its context; `conversation_id` continues a conversation.",
  body: agentMessageBodySchema,
  request: (body) => messageRequest('cmo', body),
});
