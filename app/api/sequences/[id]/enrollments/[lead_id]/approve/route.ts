import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { EnrollmentSchema, approveDraftBodySchema, enrollmentParams } from '@/lib/sequences/schema';
import { approveDraft } from '@/lib/sequences/service';

// POST /api/sequences/{id}/enrollments/{lead_id}/approve — send the agent's draft waiting in an enrollment, as written or edited
export const POST = defineRoute({
  summary: 'Approve an agent-drafted email',
  description:
    'An agent-drafted step with review holds the lead’s enrollment with the email agent’s draft (`draft`, `approved: false`). ' +
    'Approving it — with a new `subject` or `body` to send instead, or as written — sends it now (within the send window, ' +
    'the daily cap and the throttle), and the enrollment goes on. A draft approved already and not yet sent (waiting for ' +
    'the window) takes the edits. 409 when the enrollment has no draft of its next step.',
  tags: ['Sequences'],
  auth: policies.keyWrite,
  params: enrollmentParams,
  body: approveDraftBodySchema,
  response: EnrollmentSchema,
  errors: ['NOT_FOUND', 'CONFLICT'],
  handler: ({ siteId, params, body }) => approveDraft(siteId, params.id, params.lead_id, body),
});
