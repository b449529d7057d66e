import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { clientOf } from '@/lib/http/client-ip';
import { defineRoute } from '@/lib/http/define-route';
import { twoFactorCodeBodySchema } from '@/lib/users/schema';
import { disableTwoFactor } from '@/lib/users/service';

// POST /api/auth/2fa/disable — turn two-factor sign-in off with a current code or a recovery code
export const POST = defineRoute({
  summary: 'Turn two-factor sign-in off',
  description:
    'Needs a current code of the authenticator app or an unused recovery code; the secret and every recovery code are deleted, and sign-in ' +
    'needs the password alone again. A wrong, stale or already used code → 400 and counts toward the failed-attempt lockout (429).',
  tags: ['Auth'],
  auth: policies.owner,
  body: twoFactorCodeBodySchema,
  response: z.object({ two_factor: z.literal(false) }),
  errors: ['RATE_LIMITED'],
  handler: ({ principal, body, req }) => disableTwoFactor(principal.user.id, body.code, clientOf(req)),
});
