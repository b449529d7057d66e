import { toolRoute } from '@/lib/http/tool-route';
import { enrollInSequenceTool } from '@/lib/tools/sequences';

// POST /api/agents/tools/sequences/enroll — enroll leads in a sequence
export const POST = toolRoute(enrollInSequenceTool);
