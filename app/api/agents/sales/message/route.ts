import { agentMessageBodySchema } from '@/lib/agents/schema';
import { messageRequest } from '@/lib/agents/service';
import { agentRoute } from '@/lib/http/agent-route';

// POST /api/agents/sales/message — a message to the sales agent
export const POST = agentRoute({
  summary: 'Send a message to the sales agent',
  description:
    "Qualifies and advances leads; the agent may create and update the site's leads through its tools. Its system prompt is built from the site's settings (about, products, goals, brand voice and tone, forbidden words…). With `lead_id` the lead's details are part of its context; `conversation_id` continues a conversation.",
  body: agentMessageBodySchema,
  request: (body) => messageRequest('sales', body),
});
