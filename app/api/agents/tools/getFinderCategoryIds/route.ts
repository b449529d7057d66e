import { toolRoute } from '@/lib/http/tool-route';
import { getFinderCategoryIdsTool } from '@/lib/tools/finder';

// POST /api/agents/tools/getFinderCategoryIds — find people-search category ids
export const POST = toolRoute(getFinderCategoryIdsTool);
