import { toolRoute } from '@/lib/http/tool-route';
import { updateSequenceTool } from '@/lib/tools/sequences';

// POST /api/agents/tools/sequences/update — update or pause a sequence
export const POST = toolRoute(updateSequenceTool);
