import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { clientIp } from '@/lib/http/client-ip';
import { defineRoute } from '@/lib/http/define-route';
import { signupBodySchema, UserSchema } from '@/lib/users/schema';
import { signUp } from '@/lib/users/service';

// POST /api/auth/signup — create an account
export const POST = defineRoute({
  summary: 'Sign up',
  description:
    'Creates an account. After the first account, sign-up can be closed with OPEN_SIGNUP=false. ' +
    'Brute-force limits: AUTH_RATE_LIMIT_PER_IP attempts per minute per client IP, AUTH_FAILURES_PER_ACCOUNT failures per 15 minutes per e-mail (429 with Retry-After).',
  tags: ['Auth'],
  auth: policies.public,
  body: signupBodySchema,
  response: z.object({ user: UserSchema }),
  status: 201,
  errors: ['CONFLICT', 'FORBIDDEN', 'RATE_LIMITED'],
  handler: async ({ body, req }) => ({ user: await signUp(body, clientIp(req)) }),
});
