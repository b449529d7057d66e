import { updateLeadTool } from '@/lib/tools/leads';
import { toolRoute } from '@/lib/http/tool-route';

// POST /api/agents/tools/leads/update — update a lead
export const POST = toolRoute(updateLeadTool);
