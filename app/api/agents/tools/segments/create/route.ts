import { toolRoute } from '@/lib/http/tool-route';
import { createSegmentTool } from '@/lib/tools/segments';

// POST /api/agents/tools/segments/create — create a segment
export const POST = toolRoute(createSegmentTool);
