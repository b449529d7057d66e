import { updateLeadTool } from '@/lib/tools/leads';
import { toolRoute } from '@/lib/tools/route';

// POST /api/agents/tools/leads/update — update a lead
export const POST = toolRoute(updateLeadTool);
