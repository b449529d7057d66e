import { toolRoute } from '@/lib/http/tool-route';
import { getSequenceTool } from '@/lib/tools/sequences';

// POST /api/agents/tools/sequences/detail — one sequence with its figures and enrollments
export const POST = toolRoute(getSequenceTool);
