import { z } from 'zod';
import { createBodySchema, defineResource, field, listBodySchema, resultSchemas, updateBodySchema } from '@/lib/core/resource';
import { uuidSchema } from '@/lib/core/schemas';

/**
 * Segments: audiences a site targets. Types the spec leaves open: `size` an integer ≥ 0 (people
 * in the segment), `estimated_value` a number ≥ 0 (value of the segment in the site's currency),
 * `language` a BCP 47 tag (`en`, `es-MX`), `attributes` a JSON object of at most 64 KB.
 */
const ATTRIBUTES_MAX_BYTES = 64 * 1024;

/** Every field of a segment, once: column, input and output (lib/core/resource.ts). */
export const segmentResource = defineResource({
  name: 'Segment',
  id: 'segment_id',
  fields: {
    name: field('name', { in: z.string().trim().min(1).max(200).describe('Segment name'), out: z.string(), create: 'required', update: 'optional' }),
    description: field('description', {
      in: z.string().trim().max(10_000).describe('What the segment is'),
      out: z.string().nullable(),
      create: 'optional',
      update: 'clearable',
    }),
    audience: field('audience', {
      in: z.string().trim().max(2_000).describe('Who is in it, in words'),
      out: z.string().nullable(),
      create: 'optional',
      update: 'clearable',
    }),
    size: field('size', {
      in: z.number().int().min(0).max(2_147_483_647).describe('Number of people in the segment, an integer ≥ 0'),
      out: z.number().int().nullable(),
      create: 'optional',
      update: 'clearable',
    }),
    estimated_value: field('estimatedValue', {
      in: z.number().min(0).max(1e15).describe("Estimated value of the segment, a number ≥ 0 in the site's currency"),
      out: z.number().nullable(),
      create: 'optional',
      update: 'clearable',
      // numeric columns may come back as strings
      read: (v) => (v === null ? null : Number(v)),
    }),
    language: field('language', {
      in: z
        .string()
        .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'Must be a BCP 47 language tag such as en or es-MX')
        .describe('Language of the segment, a BCP 47 tag (en, es-MX)'),
      out: z.string().nullable(),
      create: 'optional',
      update: 'clearable',
    }),
    is_active: field('isActive', {
      in: z.boolean().describe('Whether the segment is in use (default true)'),
      out: z.boolean(),
      create: 'optional',
      update: 'optional',
    }),
    attributes: field('attributes', {
      in: z
        .record(z.string(), z.unknown())
        .refine((a) => JSON.stringify(a).length <= ATTRIBUTES_MAX_BYTES, 'attributes must be at most 64 KB serialized')
        .describe('Free-form attributes (JSON object, at most 64 KB)'),
      out: z.record(z.string(), z.unknown()),
      create: 'optional',
      update: 'optional',
    }),
  },
});

export const createSegmentInputSchema = createBodySchema(segmentResource);

export const updateSegmentInputSchema = updateBodySchema(segmentResource, 'segment_id');

export const listSegmentsInputSchema = listBodySchema({
  segment_id: uuidSchema.optional().describe('Only this segment'),
  is_active: z.boolean().optional().describe('Only active (true) or inactive (false) segments'),
});

export const SegmentSchema = segmentResource.schema;

export const { result: SegmentResultSchema, list: SegmentListSchema } = resultSchemas(SegmentSchema, 'segment', 'segments');

export type Segment = z.infer<typeof SegmentSchema>;
export type CreateSegmentInput = z.infer<typeof createSegmentInputSchema>;
export type UpdateSegmentInput = z.infer<typeof updateSegmentInputSchema>;
export type ListSegmentsInput = z.infer<typeof listSegmentsInputSchema>;
