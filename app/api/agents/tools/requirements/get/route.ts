import { getRequirementsTool } from '@/lib/tools/requirements';
import { toolRoute } from '@/lib/http/tool-route';

// POST /api/agents/tools/requirements/get — list requirements
export const POST = toolRoute(getRequirementsTool);
