import { toolRoute } from '@/lib/http/tool-route';
import { getSequencesTool } from '@/lib/tools/sequences';

// POST /api/agents/tools/sequences/get — list the site's sequences
export const POST = toolRoute(getSequencesTool);
