import { toolRoute } from '@/lib/http/tool-route';
import { getLeadsTool } from '@/lib/tools/leads';

// POST /api/agents/tools/leads/get — list leads (search, sort, paginate)
export const POST = toolRoute(getLeadsTool, { fastPath: 'the read agents repeat most' });
