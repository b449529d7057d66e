import { agentMessageRoute } from '@/lib/http/agent-route';

// POST /api/agents/cmo/message — a message to the CMO agent
export const POST = agentMessageRoute('cmo', {
  summary: 'Send a message to the CMO agent',
  description:
    "Marketing strategy, campaigns, segments and goals for the site; the agent may read and change the site's leads, segments, requirements and settings through its tools.",
});
