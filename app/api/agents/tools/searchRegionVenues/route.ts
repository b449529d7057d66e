import { searchRegionVenuesTool } from '@/lib/tools/finder';
import { toolRoute } from '@/lib/http/tool-route';

// POST /api/agents/tools/searchRegionVenues — find venues of a kind in a region
export const POST = toolRoute(searchRegionVenuesTool);
