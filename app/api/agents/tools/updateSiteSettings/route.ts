import { toolRoute } from '@/lib/http/tool-route';
import { updateSiteSettingsTool } from '@/lib/tools/settings';

// POST /api/agents/tools/updateSiteSettings — get or update site settings
export const POST = toolRoute(updateSiteSettingsTool);
