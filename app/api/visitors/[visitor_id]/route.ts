import { policies } from '@/lib/http/auth/policies';
import { clientOf } from '@/lib/http/client-ip';
import { defineRoute } from '@/lib/http/define-route';
import { ErasureSchema, siteQuerySchema, visitorPathSchema } from '@/lib/people/schema';
import { eraseAnonymousVisitor } from '@/lib/people/service';

// DELETE /api/visitors/{visitor_id} — erase a visitor without a lead with its sessions, events and files
export const DELETE = defineRoute({
  summary: 'Erase a visitor',
  description:
    'For a visitor no lead is linked to: the visitor, its sessions and events, uploaded files and conversations are deleted; recorded ' +
    'in the site’s audit log without personal data. A visitor linked to a lead answers 409 CONFLICT (erase the lead). A signed-in ' +
    'owner or admin only.',
  tags: ['People'],
  auth: policies.owner,
  permission: 'people.erase',
  params: visitorPathSchema,
  query: siteQuerySchema,
  response: ErasureSchema,
  errors: ['NOT_FOUND', 'CONFLICT'],
  handler: ({ siteId, params, principal, req }) => eraseAnonymousVisitor(siteId!, params.visitor_id, principal, clientOf(req)),
});
