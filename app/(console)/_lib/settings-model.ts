import type { z } from 'zod';
import { describe, nodesOf } from '@/components/schema-form/describe';
import type { NodeField } from '@/components/schema-form/nodes';
import { SiteSettingsSchema, type SiteSettings } from '@/lib/settings/schema';

/**
 * The settings editor's pages over SiteSettingsSchema (lib/settings/schema.ts): the console has
 * no settings schema of its own; the fields are the schema's, as the form generator describes them.
 */

/** The editor's pages: each saves only its own fields. Every settings field is in exactly one. */
export const SETTINGS_GROUPS = [
  { id: 'company', label: 'Company', fields: ['about', 'company_size', 'industry'] },
  { id: 'branding', label: 'Branding', fields: ['branding'] },
  { id: 'journey', label: 'Customer journey', fields: ['customer_journey'] },
  { id: 'swot', label: 'SWOT', fields: ['swot'] },
  { id: 'offerings', label: 'Products and services', fields: ['products', 'services'] },
  { id: 'marketing', label: 'Marketing', fields: ['marketing_channels', 'social_media', 'marketing_budget', 'channels'] },
  {
    id: 'team',
    label: 'Team profile',
    fields: ['team_members', 'team_roles', 'org_structure', 'diversity_info'],
    intro: 'Who works at the company, so the agents can name the right person and describe the team. This list gives no one access to the console.',
  },
  { id: 'market', label: 'Market', fields: ['competitors', 'competitor_info', 'partnerships', 'press_releases'] },
  { id: 'places', label: 'Places and hours', fields: ['locations', 'office_locations', 'business_hours'] },
  { id: 'goals', label: 'Goals', fields: ['goals'] },
  { id: 'tracking', label: 'Tracking privacy', fields: ['tracking'] },
] as const satisfies readonly { id: string; label: string; fields: readonly (keyof SiteSettings)[]; intro?: string }[];

export type SettingsGroup = (typeof SETTINGS_GROUPS)[number];
export const findGroup = (id: string): SettingsGroup | undefined => SETTINGS_GROUPS.find((g) => g.id === id);

/** The fields of one group, as form nodes. Every part of a settings field has an input of its own: none is left to raw JSON. */
export function groupFields(group: SettingsGroup): NodeField[] {
  const shape = SiteSettingsSchema.shape as Record<string, z.ZodType>;
  return group.fields.map((key) => {
    const node = describe(key, shape[key]);
    if (nodesOf(node).some((n) => n.kind === 'json')) throw new Error(`The settings editor has no input for a part of "${key}"`);
    return { key, node };
  });
}
