import { unsubscribeQuerySchema } from '@/lib/email/schema';
import { unsubscribe } from '@/lib/email/service';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { MessageSchema } from '@/lib/platform/schema';
import { sequenceReactions } from '@/lib/sequences/service';

// POST /api/email/unsubscribe — one-click unsubscribe (RFC 8058) from a site's email
export const POST = defineRoute({
  summary: 'One-click unsubscribe',
  description:
    'The target of the `List-Unsubscribe` header of every message a site sends to one person (with ' +
    '`List-Unsubscribe-Post: List-Unsubscribe=One-Click`): mail clients POST here, with any body. The signed token names ' +
    'the site and the address, which goes on the site’s suppression list: the site never writes to it again. Repeating ' +
    'it is harmless; an altered token is 400. People who open the link in the message reach the /unsubscribe page instead.',
  tags: ['Email'],
  auth: policies.public,
  query: unsubscribeQuerySchema,
  response: MessageSchema,
  envelope: 'bare',
  handler: ({ query }) => unsubscribe(query.token, sequenceReactions),
});
