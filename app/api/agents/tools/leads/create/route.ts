import { toolRoute } from '@/lib/http/tool-route';
import { createLeadTool } from '@/lib/tools/leads';

// POST /api/agents/tools/leads/create — create a lead
export const POST = toolRoute(createLeadTool);
