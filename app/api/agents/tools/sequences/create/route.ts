import { toolRoute } from '@/lib/http/tool-route';
import { createSequenceTool } from '@/lib/tools/sequences';

// POST /api/agents/tools/sequences/create — create a sequence
export const POST = toolRoute(createSequenceTool);
