import { z } from 'zod';
import { uuidSchema } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { clientOf } from '@/lib/http/client-ip';
import { defineRoute } from '@/lib/http/define-route';
import { endAccountSession } from '@/lib/users/service';

// DELETE /api/auth/sessions/{id} — end one session of the signed-in account
export const DELETE = defineRoute({
  summary: 'End a session',
  description:
    'Ends one session of the account (its own included): its token or cookie is refused from the next request on. Another account’s, an ' +
    'ended or an unknown session → 404.',
  tags: ['Auth'],
  auth: policies.owner,
  params: z.strictObject({ id: uuidSchema.describe('Session id (from GET /api/auth/sessions)') }),
  response: z.object({ revoked: z.literal(true) }),
  errors: ['NOT_FOUND'],
  handler: ({ principal, params, req }) => endAccountSession(principal.user.id, params.id.toLowerCase(), clientOf(req)),
});
