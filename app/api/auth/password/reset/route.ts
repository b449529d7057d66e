import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { clientOf } from '@/lib/http/client-ip';
import { defineRoute } from '@/lib/http/define-route';
import { resetPasswordBodySchema } from '@/lib/users/schema';
import { resetPassword } from '@/lib/users/service';

// POST /api/auth/password/reset — set a new password from a reset link
export const POST = defineRoute({
  summary: 'Reset the password',
  description:
    'Sets the new password with the `token` of a reset link. The link works once; the old password and every session and ' +
    'session token of the account stop working at once (sign in again). An unknown, used or expired token → 400.',
  tags: ['Auth'],
  auth: policies.public,
  body: resetPasswordBodySchema,
  response: z.object({ password_reset: z.literal(true) }),
  handler: ({ body, req }) => resetPassword(body.token, body.password, clientOf(req)),
});
