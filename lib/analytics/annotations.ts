import { z } from 'zod';
import { ApiError } from '@/lib/core/errors';
import { isoTimestamp, uuidSchema } from '@/lib/core/schemas';
import { parseInput } from '@/lib/core/validate';
import { deleteAnnotation, insertAnnotation, listAnnotations, updateAnnotation } from './annotations-repo';
import { EARLIEST_DATE, LATEST_DATE } from './schema';

/**
 * Annotations: a note on one day of a site's charts ("newsletter sent", "pricing changed"), shown
 * as a marker on that day of the Overview chart, and listed per period. Dates are calendar days,
 * read in whichever time zone the chart shows.
 */

const day = (what: string) =>
  z.iso
    .date('Must be a date YYYY-MM-DD')
    .refine((v) => v >= EARLIEST_DATE && v <= LATEST_DATE, `Must be between ${EARLIEST_DATE} and ${LATEST_DATE}`)
    .describe(what);

const textSchema = z
  .string()
  .trim()
  .min(1, 'Must not be empty')
  .max(280, 'At most 280 characters')
  .describe('What happened that day (1–280 characters)');

export const ANNOTATIONS_MAX = 500;

export const createAnnotationBodySchema = z.strictObject({
  date: day('The day the note is about (YYYY-MM-DD)'),
  text: textSchema,
});
export const updateAnnotationBodySchema = z
  .strictObject({ date: day('The day the note is about (YYYY-MM-DD)').optional(), text: textSchema.optional() })
  .refine((b) => b.date !== undefined || b.text !== undefined, { message: 'Give date, text or both' });
export const listAnnotationsQuerySchema = z.strictObject({
  from: day('First day, included (default: the earliest)').optional(),
  to: day('Last day, included (default: the latest)').optional(),
});
export const annotationPathSchema = z.strictObject({
  site_id: uuidSchema.describe('Site id (UUID); must be the site of the credential'),
  annotation_id: uuidSchema.describe('Annotation id (UUID)'),
});

export const AnnotationSchema = z.object({
  id: uuidSchema,
  date: z.string().describe('The day (YYYY-MM-DD)'),
  text: z.string(),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
});
export type Annotation = z.infer<typeof AnnotationSchema>;
export const DeletedAnnotationSchema = z.object({ id: uuidSchema, deleted: z.literal(true) });

const notFound = () => new ApiError('NOT_FOUND', 'Annotation not found');

/** The site's annotations over a period (both ends optional), by day: at most the first 500. */
export async function annotations(siteId: string, query: unknown = {}): Promise<Annotation[]> {
  const q = parseInput(listAnnotationsQuerySchema, query, 'query');
  if (q.from && q.to && q.from > q.to) {
    throw new ApiError('INVALID_REQUEST', `Invalid query: query.from: must be on or before to (${q.to})`, {
      issues: [{ path: 'query.from', message: `must be on or before to (${q.to})` }],
    });
  }
  return listAnnotations(siteId, q.from, q.to, ANNOTATIONS_MAX);
}

export async function createAnnotation(siteId: string, body: unknown): Promise<Annotation> {
  const b = parseInput(createAnnotationBodySchema, body, 'body');
  return insertAnnotation(siteId, b.date, b.text);
}

export async function changeAnnotation(siteId: string, id: string, body: unknown): Promise<Annotation> {
  const b = parseInput(updateAnnotationBodySchema, body, 'body');
  const row = await updateAnnotation(siteId, id, b);
  if (!row) throw notFound();
  return row;
}

export async function removeAnnotation(siteId: string, id: string): Promise<{ id: string; deleted: true }> {
  if (!(await deleteAnnotation(siteId, id))) throw notFound();
  return { id, deleted: true };
}
