import { toolRoute } from '@/lib/http/tool-route';
import { updateRequirementTool } from '@/lib/tools/requirements';

// POST /api/agents/tools/requirements/update — update a requirement
export const POST = toolRoute(updateRequirementTool);
