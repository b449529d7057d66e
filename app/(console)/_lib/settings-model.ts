import { z } from 'zod';
import { SiteSettingsSchema, timeOfDaySchema, type SiteSettings } from '@/lib/settings/schema';
import type { ObjectNode, SettingsField, SettingsNode } from './settings-form';

/**
 * The settings editor's fields, derived from SiteSettingsSchema (lib/settings/schema.ts): the
 * console has no settings schema of its own. Labels come from the field names, hints from the
 * schema's descriptions, limits and choices from its checks.
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

/** The fields of one group, as form nodes. */
export function groupFields(group: SettingsGroup): SettingsField[] {
  const shape = SiteSettingsSchema.shape as Record<string, z.ZodType>;
  return group.fields.map((key) => ({ key, node: describe(key, shape[key]) }));
}

const WORDS: Record<string, string> = { url: 'URL', kpis: 'KPIs', swot: 'SWOT', dont: 'don’t', sms: 'SMS', whatsapp: 'WhatsApp' };
/** `brand_pyramid` → "Brand pyramid", `logo_url` → "Logo URL". */
export function humanize(key: string): string {
  const words = key.split('_').map((w) => WORDS[w] ?? w);
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "Products" → "Product", "Opportunities" → "Opportunity", "Weaknesses" → "Weakness": one item of a list. */
export function singular(label: string): string {
  if (/ies$/.test(label)) return `${label.slice(0, -3)}y`;
  if (/sses$/.test(label)) return label.slice(0, -2);
  return /ss$/.test(label) || !/s$/.test(label) ? label : label.slice(0, -1);
}

function unwrap(schema: z.ZodType): { inner: z.ZodType; optional: boolean } {
  let inner = schema;
  let optional = false;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) {
    optional = true;
    inner = inner.unwrap() as z.ZodType;
  }
  return { inner, optional };
}

/** Labels a field name alone would make misleading. */
const LABELS: Record<string, string> = { team_members: 'People on the team' };

function base(key: string, schema: z.ZodType, required: boolean) {
  const label = LABELS[key] ?? humanize(key);
  const description = schema.description ?? unwrap(schema).inner.description;
  const hint = description && !restates(description, label) ? description : undefined;
  return { label, required, ...(hint ? { hint } : {}) };
}

/** A description that only repeats the label ("Primary color" for Primary) is not shown as a hint. */
const restates = (description: string, label: string) =>
  description.toLowerCase() === label.toLowerCase() ||
  (description.toLowerCase().startsWith(label.toLowerCase()) && description.split(' ').length <= label.split(' ').length + 1);

/** The string formats with an input type of their own. */
const INPUTS: Record<string, 'url' | 'email' | 'date'> = { url: 'url', email: 'email', date: 'date' };

export function describe(key: string, schema: z.ZodType, required = false): SettingsNode {
  const { inner } = unwrap(schema);
  const common = base(key, schema, required);
  const format = (inner as { format?: unknown }).format;
  if (inner instanceof z.ZodString || (typeof format === 'string' && format in INPUTS)) {
    const maxLength = (inner as z.ZodString).maxLength ?? undefined;
    const input = inner === timeOfDaySchema ? 'time' : (typeof format === 'string' && INPUTS[format]) || 'text';
    // A time input shows its own format: "HH:MM (24-hour)" under each one would only repeat it.
    const { hint: _hint, ...plain } = common;
    return {
      ...(input === 'time' ? plain : common),
      kind: 'text',
      input,
      multiline: input === 'text' && (maxLength ?? 0) >= 1_000,
      ...(maxLength ? { maxLength } : {}),
    };
  }
  if (inner instanceof z.ZodNumber) {
    const min = inner.minValue;
    return { ...common, kind: 'number', integer: inner.isInt, ...(min !== null && Number.isFinite(min) ? { min } : {}) };
  }
  if (inner instanceof z.ZodBoolean) return { ...common, kind: 'boolean' };
  if (inner instanceof z.ZodEnum) return { ...common, kind: 'choice', options: inner.options.map(String) };
  if (inner instanceof z.ZodObject) return objectNode(key, inner, schema, required);
  if (inner instanceof z.ZodArray) {
    const element = unwrap(inner.element as z.ZodType).inner;
    const maxItems = maxLengthOf(inner);
    const limits = maxItems !== undefined ? { maxItems } : {};
    if (element instanceof z.ZodObject) {
      return { ...common, kind: 'objects', itemLabel: singular(common.label), item: objectNode(key, element, element, true), ...limits };
    }
    const item = describe(key, element, true);
    return {
      ...common,
      kind: 'strings',
      itemLabel: singular(common.label),
      ...limits,
      ...(item.kind === 'text' && item.maxLength ? { maxLength: item.maxLength } : {}),
    };
  }
  if (inner instanceof z.ZodRecord) {
    const keyType = inner.keyType as z.ZodType;
    const value = describe('value', inner.valueType as z.ZodType, true);
    if (keyType instanceof z.ZodEnum) {
      return { ...common, kind: 'map', keys: keyType.options.map((k) => ({ key: String(k), label: humanize(String(k)) })), value };
    }
    return { ...common, kind: 'pairs', itemLabel: singular(common.label), value };
  }
  throw new Error(`The settings editor has no input for "${key}" (${inner.constructor.name})`);
}

/** The `.max(n)` of an array. */
function maxLengthOf(schema: z.ZodArray): number | undefined {
  const checks = (schema._zod.def.checks ?? []) as { _zod: { def: { check: string; maximum?: number } } }[];
  return checks.find((c) => c._zod.def.check === 'max_length')?._zod.def.maximum;
}

function objectNode(key: string, inner: z.ZodObject, schema: z.ZodType, required: boolean): ObjectNode {
  const fields = Object.entries(inner.shape as Record<string, z.ZodType>).map(([k, field]) => ({
    key: k,
    node: describe(k, field, !(field instanceof z.ZodOptional)),
  }));
  return { ...base(key, schema, required), kind: 'object', fields };
}
