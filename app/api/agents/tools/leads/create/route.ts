import { createLeadTool } from '@/lib/tools/leads';
import { toolRoute } from '@/lib/http/tool-route';

// POST /api/agents/tools/leads/create — create a lead
export const POST = toolRoute(createLeadTool);
