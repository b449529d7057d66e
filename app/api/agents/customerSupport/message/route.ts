import { agentMessageBodySchema } from '@/lib/agents/schema';
import { messageRequest } from '@/lib/agents/service';
import { agentRoute } from '@/lib/http/agent-route';

// POST /api/agents/customerSupport/message — a message to the customer support agent
export const POST = agentRoute({
  summary: 'Send a message to the customer support agent',
  description:
    "Answers customers and visitors from the site's business settings; it may look records up through its tools. Its system prompt is built from the site's settings (about, products, goals, brand voice and tone, forbidden words…). With `lead_id` the lead's details are part of its context; `conversation_id` continues a conversation.",
  body: agentMessageBodySchema,
  request: (body) => messageRequest('customerSupport', body),
});
