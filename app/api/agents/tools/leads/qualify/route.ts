import { qualifyLeadTool } from '@/lib/tools/leads';
import { toolRoute } from '@/lib/http/tool-route';

// POST /api/agents/tools/leads/qualify — set a lead's status
export const POST = toolRoute(qualifyLeadTool);
