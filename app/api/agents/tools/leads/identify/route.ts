import { toolRoute } from '@/lib/http/tool-route';
import { identifyLeadTool } from '@/lib/tools/leads';

// POST /api/agents/tools/leads/identify — link a visitor to a lead
export const POST = toolRoute(identifyLeadTool);
