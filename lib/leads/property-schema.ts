import { z } from 'zod';
import { isoTimestamp, siteIdSchema, uuidSchema } from '@/lib/core/schemas';

/**
 * Custom lead properties: fields a site defines for its leads ("plan", "deal size"). A definition
 * has a `key` (how the value is named in `custom_properties`, the CSV columns and the filters), a
 * `label`, a `type` and, for `choice`, its options. Values live on the lead, in
 * `custom_properties`, and are checked against the site's definitions on every write.
 */
export const PROPERTY_TYPES = ['text', 'number', 'date', 'choice'] as const;

/** Most custom properties one site may define. */
export const MAX_PROPERTIES = 100;
/** Longest text value. */
export const MAX_TEXT_VALUE = 1_000;
/** Most options of a choice property. */
export const MAX_OPTIONS = 100;

/**
 * Keys that name a lead's own fields (and the CSV mapping's name fields): a property may not take
 * one, so that a CSV column or a filter always means one thing.
 */
export const RESERVED_PROPERTY_KEYS = [
  'id',
  'lead_id',
  'site_id',
  'name',
  'first_name',
  'last_name',
  'email',
  'status',
  'phone',
  'position',
  'company',
  'notes',
  'origin',
  'segment_id',
  'campaign_id',
  'assignee_id',
  'lead_score',
  'created_at',
  'updated_at',
  'custom_properties',
] as const;

const reserved = new Set<string>(RESERVED_PROPERTY_KEYS);

const keySchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,39}$/, 'Must start with a lower-case letter, then up to 39 lower-case letters, digits or underscores')
  .refine((k) => !reserved.has(k), "Names one of the lead's own fields; choose another key")
  .describe(
    'How the value is named in `custom_properties`, CSV columns and `property.<key>` filters: lower-case letters, digits and `_`, unique per site',
  );

const labelSchema = z.string().trim().min(1).max(100).describe('Name shown in the console');
const optionSchema = z.string().trim().min(1).max(100);
const optionsSchema = z
  .array(optionSchema)
  .max(MAX_OPTIONS)
  .refine((o) => new Set(o.map((x) => x.toLowerCase())).size === o.length, 'Options must be distinct (case-insensitive)')
  .describe(`The values a choice property may take (1–${MAX_OPTIONS}); only for type choice`);

export const createPropertyBodySchema = z
  .strictObject({
    site_id: siteIdSchema,
    key: keySchema,
    label: labelSchema,
    type: z.enum(PROPERTY_TYPES).describe('text (up to 1,000 characters), number, date (YYYY-MM-DD) or choice (one of `options`)'),
    options: optionsSchema.optional(),
  })
  .refine((b) => (b.type === 'choice' ? (b.options?.length ?? 0) > 0 : b.options === undefined || b.options.length === 0), {
    message: 'A choice property needs options; other types take none',
    path: ['options'],
  });

export const updatePropertyBodySchema = z
  .strictObject({
    site_id: siteIdSchema,
    label: labelSchema.optional(),
    options: optionsSchema.optional().describe('The full new list of options (choice only); an option still held by a lead may not be removed'),
    position: z.number().int().min(0).max(1000).optional().describe('Order among the properties (ascending)'),
  })
  .refine((b) => b.label !== undefined || b.options !== undefined || b.position !== undefined, 'Give at least one field to change')
  .describe('The key and type are fixed once created');

export const propertyParamsSchema = z.strictObject({ property_id: uuidSchema.describe('The property definition') });
export const propertySiteQuerySchema = z.strictObject({ site_id: siteIdSchema });

export const LeadPropertySchema = z.object({
  property_id: uuidSchema,
  site_id: uuidSchema,
  key: z.string(),
  label: z.string(),
  type: z.enum(PROPERTY_TYPES),
  options: z.array(z.string()).describe('Choice options (empty for other types)'),
  position: z.number().int(),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
});

export type LeadProperty = z.infer<typeof LeadPropertySchema>;
export type CreatePropertyInput = z.infer<typeof createPropertyBodySchema>;
export type UpdatePropertyInput = z.infer<typeof updatePropertyBodySchema>;

/** A stored value: text, date and choice as strings, number as a number. */
export type PropertyValue = string | number;
export type CustomProperties = Record<string, PropertyValue>;

/** What a write may carry: a value per key, `null` (or an empty string) clearing it. */
export const customPropertiesInputSchema = z
  .record(z.string().max(40), z.union([z.string().max(MAX_TEXT_VALUE), z.number(), z.null()]))
  .describe(
    "Values of the site's custom properties by key (GET /api/leads/properties): text a string, number a number, date `YYYY-MM-DD`, choice one of its options; null or an empty string clears it. An unknown key or a value of the wrong type is 400 naming the field. On update only the given keys change.",
  );

export const customPropertiesOutputSchema = z
  .record(z.string(), z.union([z.string(), z.number()]))
  .describe("Values of the site's custom properties by key");
