import { updateRequirementTool } from '@/lib/tools/requirements';
import { toolRoute } from '@/lib/http/tool-route';

// POST /api/agents/tools/requirements/update — update a requirement
export const POST = toolRoute(updateRequirementTool);
