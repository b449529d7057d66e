import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { AccountSchema, verifyEmailBodySchema } from '@/lib/users/schema';
import { verifyEmail } from '@/lib/users/service';

// POST /api/auth/verify-email — verify an account's address from the link mailed to it
export const POST = defineRoute({
  summary: 'Verify the email address',
  description:
    'Spends the `token` of a verification link (sent at sign-up and by `POST /api/auth/verify-email/resend`; valid 7 days, single use) ' +
    'and answers the account. An unknown, used or expired token → 400.',
  tags: ['Auth'],
  auth: policies.public,
  body: verifyEmailBodySchema,
  response: AccountSchema,
  handler: ({ body }) => verifyEmail(body.token),
});
