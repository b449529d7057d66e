import { toolRoute } from '@/lib/http/tool-route';
import { searchRegionVenuesTool } from '@/lib/tools/finder';

// POST /api/agents/tools/searchRegionVenues — find venues of a kind in a region
export const POST = toolRoute(searchRegionVenuesTool);
