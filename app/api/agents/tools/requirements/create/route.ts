import { createRequirementTool } from '@/lib/tools/requirements';
import { toolRoute } from '@/lib/http/tool-route';

// POST /api/agents/tools/requirements/create — create a requirement
export const POST = toolRoute(createRequirementTool);
