import { createSegmentTool } from '@/lib/tools/segments';
import { toolRoute } from '@/lib/http/tool-route';

// POST /api/agents/tools/segments/create — create a segment
export const POST = toolRoute(createSegmentTool);
