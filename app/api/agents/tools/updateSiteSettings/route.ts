import { updateSiteSettingsTool } from '@/lib/tools/settings';
import { toolRoute } from '@/lib/http/tool-route';

// POST /api/agents/tools/updateSiteSettings — get or update site settings
export const POST = toolRoute(updateSiteSettingsTool);
