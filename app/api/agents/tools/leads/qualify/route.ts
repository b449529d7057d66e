import { toolRoute } from '@/lib/http/tool-route';
import { qualifyLeadTool } from '@/lib/tools/leads';

// POST /api/agents/tools/leads/qualify — set a lead's status
export const POST = toolRoute(qualifyLeadTool);
