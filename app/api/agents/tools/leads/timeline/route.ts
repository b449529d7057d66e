import { toolRoute } from '@/lib/http/tool-route';
import { getLeadTimelineTool } from '@/lib/tools/people';

// POST /api/agents/tools/leads/timeline — a lead's timeline, newest first
export const POST = toolRoute(getLeadTimelineTool);
