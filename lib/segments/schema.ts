import { z } from 'zod';
import { clearableFields, isoTimestamp, listBodyPagination, listResultShape, optionalFields, siteIdSchema, uuidSchema } from '@/lib/core/schemas';

/**
 * Segments: audiences a site targets. Types the spec leaves open: `size` an integer ≥ 0 (people
 * in the segment), `estimated_value` a number ≥ 0 (value of the segment in the site's currency),
 * `language` a BCP 47 tag (`en`, `es-MX`), `attributes` a JSON object of at most 64 KB.
 */
const ATTRIBUTES_MAX_BYTES = 64 * 1024;

const segmentFields = {
  description: z.string().trim().max(10_000).describe('What the segment is'),
  audience: z.string().trim().max(2_000).describe('Who is in it, in words'),
  size: z.number().int().min(0).max(2_147_483_647).describe('Number of people in the segment, an integer ≥ 0'),
  estimated_value: z.number().min(0).max(1e15).describe("Estimated value of the segment, a number ≥ 0 in the site's currency"),
  language: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'Must be a BCP 47 language tag such as en or es-MX')
    .describe('Language of the segment, a BCP 47 tag (en, es-MX)'),
  is_active: z.boolean().describe('Whether the segment is in use (default true)'),
  attributes: z
    .record(z.string(), z.unknown())
    .refine((a) => JSON.stringify(a).length <= ATTRIBUTES_MAX_BYTES, 'attributes must be at most 64 KB serialized')
    .describe('Free-form attributes (JSON object, at most 64 KB)'),
};

const nameSchema = z.string().trim().min(1).max(200).describe('Segment name');
const { is_active, attributes, ...clearable } = segmentFields;

export const createSegmentInputSchema = z.strictObject({
  site_id: siteIdSchema,
  name: nameSchema,
  ...optionalFields(segmentFields),
});

export const updateSegmentInputSchema = z
  .strictObject({
    site_id: siteIdSchema,
    segment_id: uuidSchema.describe('The segment to update'),
    name: nameSchema.optional(),
    ...clearableFields(clearable),
    is_active: is_active.optional(),
    attributes: attributes.optional(),
  })
  .refine((b) => Object.keys(b).some((k) => k !== 'site_id' && k !== 'segment_id'), 'Give at least one field to change')
  .describe('Only the given fields change; null clears an optional field');

export const listSegmentsInputSchema = z.strictObject({
  site_id: siteIdSchema,
  segment_id: uuidSchema.optional().describe('Only this segment'),
  is_active: z.boolean().optional().describe('Only active (true) or inactive (false) segments'),
  ...listBodyPagination,
});

export const SegmentSchema = z.object({
  segment_id: uuidSchema,
  site_id: uuidSchema,
  name: z.string(),
  description: z.string().nullable(),
  audience: z.string().nullable(),
  size: z.number().int().nullable(),
  estimated_value: z.number().nullable(),
  language: z.string().nullable(),
  is_active: z.boolean(),
  attributes: z.record(z.string(), z.unknown()),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
});

export const SegmentResultSchema = z.object({ segment: SegmentSchema });
export const SegmentListSchema = z.object({ segments: z.array(SegmentSchema), ...listResultShape });

export type Segment = z.infer<typeof SegmentSchema>;
export type CreateSegmentInput = z.infer<typeof createSegmentInputSchema>;
export type UpdateSegmentInput = z.infer<typeof updateSegmentInputSchema>;
export type ListSegmentsInput = z.infer<typeof listSegmentsInputSchema>;
