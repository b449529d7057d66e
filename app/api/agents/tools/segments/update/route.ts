import { updateSegmentTool } from '@/lib/tools/segments';
import { toolRoute } from '@/lib/http/tool-route';

// POST /api/agents/tools/segments/update — update a segment
export const POST = toolRoute(updateSegmentTool);
