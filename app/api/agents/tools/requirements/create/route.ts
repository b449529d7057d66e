import { toolRoute } from '@/lib/http/tool-route';
import { createRequirementTool } from '@/lib/tools/requirements';

// POST /api/agents/tools/requirements/create — create a requirement
export const POST = toolRoute(createRequirementTool);
