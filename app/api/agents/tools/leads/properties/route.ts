import { toolRoute } from '@/lib/http/tool-route';
import { getLeadPropertiesTool } from '@/lib/tools/leads';

// POST /api/agents/tools/leads/properties — the site's custom lead properties
export const POST = toolRoute(getLeadPropertiesTool);
