import { createRequirementTool } from '@/lib/tools/requirements';
import { toolRoute } from '@/lib/tools/route';

// POST /api/agents/tools/requirements/create — create a requirement
export const POST = toolRoute(createRequirementTool);
