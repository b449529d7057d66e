import { policies } from '@/lib/http/auth/policies';
import { clientOf } from '@/lib/http/client-ip';
import { defineRoute } from '@/lib/http/define-route';
import { eraseLeadQuerySchema, ErasureSchema, leadPathSchema } from '@/lib/people/schema';
import { erasePerson } from '@/lib/people/service';

// DELETE /api/leads/{lead_id} — erase a person: the lead and everything stored about them
export const DELETE = defineRoute({
  summary: 'Erase a person',
  description:
    'With `erase=true`: the lead, its visitors, their sessions and events, its emails, notes, conversations, enrollments and uploaded ' +
    'files are deleted, and the address goes on the suppression list as a hash, so the person is never mailed again. Rolled-up ' +
    'analytics keep anonymous counts. Recorded in the site’s audit log without personal data. A signed-in owner or admin only: ' +
    'erasure is a person’s act, never an API key’s or an agent’s.',
  tags: ['People'],
  auth: policies.owner,
  permission: 'people.erase',
  params: leadPathSchema,
  query: eraseLeadQuerySchema,
  response: ErasureSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params, principal, req }) => erasePerson(siteId!, params.lead_id, principal, clientOf(req)),
});
