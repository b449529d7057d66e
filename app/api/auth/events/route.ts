import { z } from 'zod';
import { paginationQuerySchema } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { withPageMeta } from '@/lib/http/route-group';
import { AccountEventSchema } from '@/lib/users/schema';
import { accountEvents } from '@/lib/users/service';

// GET /api/auth/events — the signed-in account's audit log, newest first
export const GET = defineRoute({
  summary: 'Account audit log',
  description:
    'What happened to the account, newest first: sign-ins and failed ones, password resets, two-factor changes, recovery codes used, sessions ' +
    'ended, and on sites it is a member of, invitations and role changes. Never a password, code or token. `meta` carries `{total, limit, offset, has_more}`.',
  tags: ['Auth'],
  auth: policies.owner,
  query: paginationQuerySchema,
  response: z.array(AccountEventSchema),
  handler: ({ principal, query, res }) => withPageMeta(res, query, accountEvents(principal.user.id, query)),
});
