import { analyzeICPTotalCountTool } from '@/lib/tools/finder';
import { toolRoute } from '@/lib/http/tool-route';

// POST /api/agents/tools/analyzeICPTotalCount — count the people an ICP search finds
export const POST = toolRoute(analyzeICPTotalCountTool);
