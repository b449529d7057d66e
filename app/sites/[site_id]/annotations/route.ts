import { z } from 'zod';
import { AnnotationSchema, annotations, createAnnotation, createAnnotationBodySchema, listAnnotationsQuerySchema } from '@/lib/analytics/annotations';
import { siteIdSchema } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';

const params = z.object({ site_id: siteIdSchema });

// GET /sites/{site_id}/annotations — the site's chart annotations over a period
export const GET = defineRoute({
  summary: 'List annotations',
  description: 'Notes on days of the charts, by day (at most 500). `from`/`to` (YYYY-MM-DD, both included) narrow the list.',
  tags: ['Analytics'],
  auth: policies.siteKey,
  params,
  query: listAnnotationsQuerySchema,
  response: z.array(AnnotationSchema),
  handler: ({ siteId, query }) => annotations(siteId, query),
});

// POST /sites/{site_id}/annotations — add a note on a day of the charts
export const POST = defineRoute({
  summary: 'Add an annotation',
  description: 'A note on one day ("newsletter sent"), shown as a marker on that day of the Overview chart.',
  tags: ['Analytics'],
  auth: policies.siteKey,
  params,
  body: createAnnotationBodySchema,
  response: AnnotationSchema,
  status: 201,
  handler: ({ siteId, body }) => createAnnotation(siteId, body),
});
