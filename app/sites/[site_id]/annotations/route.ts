import { z } from 'zod';
import { AnnotationSchema, annotations, createAnnotation, createAnnotationBodySchema, listAnnotationsQuerySchema } from '@/lib/analytics/annotations';
import { analyticsRoute } from '@/lib/http/site-routes';

// GET /sites/{site_id}/annotations — the site's chart annotations over a period
export const GET = analyticsRoute({
  summary: 'List annotations',
  description: 'Notes on days of the charts, by day (at most 500). `from`/`to` (YYYY-MM-DD, both included) narrow the list.',
  query: listAnnotationsQuerySchema,
  response: z.array(AnnotationSchema),
  handler: ({ siteId, query }) => annotations(siteId, query),
});

// POST /sites/{site_id}/annotations — add a note on a day of the charts
export const POST = analyticsRoute({
  summary: 'Add an annotation',
  description: 'A note on one day ("newsletter sent"), shown as a marker on that day of the Overview chart.',
  body: createAnnotationBodySchema,
  response: AnnotationSchema,
  status: 201,
  handler: ({ siteId, body }) => createAnnotation(siteId, body),
});
