import { getLeadsTool } from '@/lib/tools/leads';
import { toolRoute } from '@/lib/http/tool-route';

// POST /api/agents/tools/leads/get — list leads (search, sort, paginate)
export const POST = toolRoute(getLeadsTool);
