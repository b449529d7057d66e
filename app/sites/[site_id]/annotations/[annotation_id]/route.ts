import {
  annotationPathSchema,
  AnnotationSchema,
  changeAnnotation,
  DeletedAnnotationSchema,
  removeAnnotation,
  updateAnnotationBodySchema,
} from '@/lib/analytics/annotations';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';

// PATCH /sites/{site_id}/annotations/{annotation_id} — change an annotation's day or text
export const PATCH = defineRoute({
  summary: 'Change an annotation',
  tags: ['Analytics'],
  auth: policies.siteKey,
  params: annotationPathSchema,
  body: updateAnnotationBodySchema,
  response: AnnotationSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params, body }) => changeAnnotation(siteId, params.annotation_id, body),
});

// DELETE /sites/{site_id}/annotations/{annotation_id} — delete an annotation
export const DELETE = defineRoute({
  summary: 'Delete an annotation',
  tags: ['Analytics'],
  auth: policies.siteKey,
  params: annotationPathSchema,
  response: DeletedAnnotationSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params }) => removeAnnotation(siteId, params.annotation_id),
});
