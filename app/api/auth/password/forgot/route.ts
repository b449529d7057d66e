import { policies } from '@/lib/http/auth/policies';
import { clientIp } from '@/lib/http/client-ip';
import { defineRoute } from '@/lib/http/define-route';
import { requestOrigin } from '@/lib/http/request-origin';
import { forgotPasswordBodySchema, MailSentSchema } from '@/lib/users/schema';
import { requestPasswordReset } from '@/lib/users/service';

// POST /api/auth/password/forgot — mail a password reset link to an account's address
export const POST = defineRoute({
  summary: 'Ask for a password reset link',
  description:
    'Mails a link to choose a new password (`POST /api/auth/password/reset`, valid 1 hour, single use) when the address has an ' +
    'account; the answer is the same when it has none. Limits: ACCOUNT_MAILS_PER_ADDRESS per address and hour, ' +
    'AUTH_RATE_LIMIT_PER_IP per client IP and minute (429 with Retry-After).',
  tags: ['Auth'],
  auth: policies.public,
  body: forgotPasswordBodySchema,
  response: MailSentSchema,
  status: 202,
  errors: ['RATE_LIMITED'],
  handler: ({ body, req }) => requestPasswordReset(body.email, clientIp(req), requestOrigin(req)),
});
