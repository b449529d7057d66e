import { z } from 'zod';
import { requireScope } from '@/lib/core/principal';
import { siteIdSchema } from '@/lib/core/schemas';
import { SettingsPatchSchema, SiteSettingsSchema } from '@/lib/settings/schema';
import { getSettings, updateSettings } from '@/lib/settings/service';
import { defineTool } from './define-tool';

const inputSchema = SettingsPatchSchema.extend({
  site_id: siteIdSchema,
  action: z.enum(['get', 'update']).describe('`get` returns the settings; `update` changes the given fields and returns the result'),
}).refine((b) => b.action === 'update' || Object.keys(b).every((k) => k === 'site_id' || k === 'action'), 'The get action takes no settings fields');

export const updateSiteSettingsTool = defineTool({
  name: 'updateSiteSettings',
  effect: 'overwrite',
  path: 'updateSiteSettings',
  title: 'Get or update site settings',
  description:
    'Reads (`action: "get"`) or changes (`action: "update"`) the site\'s business settings. Update merge rules: only the fields given change; objects (branding, customer_journey, swot, marketing_budget, …) merge key by key, recursively; arrays and text/number/boolean values replace the stored value; `null` removes a field. Unknown fields are refused (400) and nothing is written. `get` needs the read scope, `update` the write scope.',
  scope: 'read',
  input: inputSchema,
  output: z.object({ settings: SiteSettingsSchema }),
  run: async ({ siteId, principal }, { site_id: _site, action, ...patch }) => {
    if (action === 'get') return { settings: await getSettings(siteId) };
    requireScope(principal, 'write');
    return { settings: await updateSettings(siteId, patch) };
  },
});
