import { agentMessageRoute } from '@/lib/http/agent-route';

// POST /api/agents/sales/message — a message to the sales agent
export const POST = agentMessageRoute('sales', {
  summary: 'Send a message to the sales agent',
  description: "Qualifies and advances leads; the agent may create and update the site's leads through its tools.",
});
