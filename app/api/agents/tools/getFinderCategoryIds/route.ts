import { getFinderCategoryIdsTool } from '@/lib/tools/finder';
import { toolRoute } from '@/lib/http/tool-route';

// POST /api/agents/tools/getFinderCategoryIds — find people-search category ids
export const POST = toolRoute(getFinderCategoryIdsTool);
