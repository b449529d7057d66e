import { getSegmentsTool } from '@/lib/tools/segments';
import { toolRoute } from '@/lib/http/tool-route';

// POST /api/agents/tools/segments/get — list segments
export const POST = toolRoute(getSegmentsTool);
