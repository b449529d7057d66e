import { toolRoute } from '@/lib/http/tool-route';
import { getRequirementsTool } from '@/lib/tools/requirements';

// POST /api/agents/tools/requirements/get — list requirements
export const POST = toolRoute(getRequirementsTool);
