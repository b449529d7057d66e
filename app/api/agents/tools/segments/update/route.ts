import { toolRoute } from '@/lib/http/tool-route';
import { updateSegmentTool } from '@/lib/tools/segments';

// POST /api/agents/tools/segments/update — update a segment
export const POST = toolRoute(updateSegmentTool);
