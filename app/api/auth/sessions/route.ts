import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { clientOf } from '@/lib/http/client-ip';
import { routeGroup } from '@/lib/http/route-group';
import { SessionInfoSchema } from '@/lib/users/schema';
import { endOtherSessions, listSessions } from '@/lib/users/service';

const route = routeGroup({ tags: ['Auth'], auth: policies.owner });

// GET /api/auth/sessions — the signed-in account's live sessions, newest first
export const GET = route({
  summary: 'Sessions of the account',
  description:
    'Every session of the account that still works: console sign-ins and session tokens alike, with the user agent and address it was signed in ' +
    'from, and its last use (to the minute). `current` marks the one this request was made with.',
  response: z.array(SessionInfoSchema),
  handler: ({ principal }) => listSessions(principal.user.id, principal.sessionId ?? null),
});

// DELETE /api/auth/sessions — sign out everywhere else: end every session but this request's
export const DELETE = route({
  summary: 'End the other sessions',
  description: 'Ends every session of the account except the one this request was made with; their tokens and cookies are refused from now on.',
  response: z.object({ revoked: z.number().int().describe('Sessions ended') }),
  handler: ({ principal, req }) => endOtherSessions(principal.user.id, principal.sessionId ?? null, clientOf(req)),
});
