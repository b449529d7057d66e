import { identifyLeadTool } from '@/lib/tools/leads';
import { toolRoute } from '@/lib/http/tool-route';

// POST /api/agents/tools/leads/identify — link a visitor to a lead
export const POST = toolRoute(identifyLeadTool);
