import { agentMessageRoute } from '@/lib/http/agent-route';

// POST /api/agents/customerSupport/message — a message to the customer support agent
export const POST = agentMessageRoute('customerSupport', {
  summary: 'Send a message to the customer support agent',
  description: "Answers customers and visitors from the site's business settings; it may look records up through its tools.",
});
