import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { EnrollmentSchema, enrollmentParams, siteQuerySchema } from '@/lib/sequences/schema';
import { unenroll } from '@/lib/sequences/service';

// DELETE /api/sequences/{id}/enrollments/{lead_id} — take a lead out: nothing more is sent to it
export const DELETE = defineRoute({
  summary: 'Remove a lead from a sequence',
  description: 'The enrollment stops (`stop_reason: removed`) and stays listed with its history; the lead cannot be enrolled in this sequence again.',
  tags: ['Sequences'],
  auth: policies.keyWrite,
  params: enrollmentParams,
  query: siteQuerySchema,
  response: EnrollmentSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params }) => unenroll(siteId, params.id, params.lead_id),
});
