import { toolRoute } from '@/lib/http/tool-route';
import { unenrollFromSequenceTool } from '@/lib/tools/sequences';

// POST /api/agents/tools/sequences/unenroll — take a lead out of a sequence
export const POST = toolRoute(unenrollFromSequenceTool);
