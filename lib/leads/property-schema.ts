import { z } from 'zod';
import { isoTimestamp, siteIdSchema, uuidSchema } from '@/lib/core/schemas';
import { LEAD_FIELDS } from './schema';

/**
 * Custom lead properties: fields a site defines for its leads ("plan", "deal size"). A definition
 * has a `key` (how the value is named in `custom_properties`, the CSV columns and the filters), a
 * `label`, a `type` and, for `choice`, its options. Values live on the lead, in
 * `custom_properties`, and are checked against the site's definitions on every write.
 */
export const PROPERTY_TYPES = ['text', 'number', 'date', 'choice'] as const;

/** Most custom properties one site may define. */
export const MAX_PROPERTIES = 100;
/** Most options of a choice property. */
export const MAX_OPTIONS = 100;

/**
 * Keys that name a lead's own fields (and the CSV mapping's name fields): a property may not take
 * one, so that a CSV column or a filter always means one thing.
 */
const reserved = new Set<string>(['id', 'lead_id', 'site_id', 'first_name', 'last_name', ...LEAD_FIELDS, 'created_at', 'updated_at']);

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
