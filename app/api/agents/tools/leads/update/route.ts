import { toolRoute } from '@/lib/http/tool-route';
import { updateLeadTool } from '@/lib/tools/leads';

// POST /api/agents/tools/leads/update — update a lead
export const POST = toolRoute(updateLeadTool);
