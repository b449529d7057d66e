import { toolRoute } from '@/lib/http/tool-route';
import { getSegmentsTool } from '@/lib/tools/segments';

// POST /api/agents/tools/segments/get — list segments
export const POST = toolRoute(getSegmentsTool);
