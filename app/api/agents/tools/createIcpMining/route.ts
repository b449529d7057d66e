import { toolRoute } from '@/lib/http/tool-route';
import { createIcpMiningTool } from '@/lib/tools/finder';

// POST /api/agents/tools/createIcpMining — save a role query and mine leads for it
export const POST = toolRoute(createIcpMiningTool);
