import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { acceptInvitationBodySchema, AcceptedInvitationSchema } from '@/lib/members/schema';
import { acceptInvitation } from '@/lib/members/service';

// POST /api/invitations/accept — join a site with the token of an invitation mailed to the signed-in account's address
export const POST = defineRoute({
  summary: 'Accept an invitation',
  description:
    'Joins the site with the invitation’s role. Only an account whose address is the invited one may accept (403 ' +
    'otherwise; the link keeps working for that address): the mailed link proves the mailbox, so the address need not ' +
    'be verified first. A person without an account signs up with the invited address, then accepts. The link works ' +
    'once, for 7 days (400 for an unknown, used, revoked or expired one); a member already keeps the role they have.',
  tags: ['Members'],
  auth: policies.owner,
  body: acceptInvitationBodySchema,
  response: AcceptedInvitationSchema,
  handler: ({ principal, body }) => acceptInvitation(principal.user, body.token),
});
