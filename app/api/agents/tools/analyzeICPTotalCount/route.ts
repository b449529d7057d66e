import { toolRoute } from '@/lib/http/tool-route';
import { analyzeICPTotalCountTool } from '@/lib/tools/finder';

// POST /api/agents/tools/analyzeICPTotalCount — count the people an ICP search finds
export const POST = toolRoute(analyzeICPTotalCountTool);
