import { policies } from '@/lib/http/auth/policies';
import { clientIp } from '@/lib/http/client-ip';
import { defineRoute } from '@/lib/http/define-route';
import { requestOrigin } from '@/lib/http/request-origin';
import { MailSentSchema, signupBodySchema } from '@/lib/users/schema';
import { signUp } from '@/lib/users/service';

// POST /api/auth/signup — create an account and mail it a verification link
export const POST = defineRoute({
  summary: 'Sign up',
  description:
    'Creates an account and mails a link that verifies its address (`POST /api/auth/verify-email`). The answer is the same ' +
    'for an address that already has an account: nothing changes, and that address gets a mail saying someone tried, with a ' +
    'password reset link. Sign in with `POST /api/auth/token`. After the first account, sign-up can be closed with OPEN_SIGNUP=false. ' +
    'Brute-force limits: AUTH_RATE_LIMIT_PER_IP attempts per minute per client IP, AUTH_FAILURES_PER_ACCOUNT failures per 15 minutes per e-mail (429 with Retry-After).',
  tags: ['Auth'],
  auth: policies.public,
  body: signupBodySchema,
  response: MailSentSchema,
  status: 202,
  errors: ['FORBIDDEN', 'RATE_LIMITED'],
  handler: async ({ body, req }) => (await signUp(body, clientIp(req), requestOrigin(req))).answer,
});
