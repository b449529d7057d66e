import { defineRoute } from '@/lib/http/define-route';
import { signupBodySchema, UserSchema } from '@/lib/users/schema';
import { signUp } from '@/lib/users/service';
import { z } from 'zod';

// POST /api/auth/signup — create an account
export const POST = defineRoute({
  summary: 'Sign up',
  description: 'Creates an account. After the first account, sign-up can be closed with OPEN_SIGNUP=false.',
  tags: ['Auth'],
  auth: { kind: 'public' },
  body: signupBodySchema,
  response: z.object({ user: UserSchema }),
  status: 201,
  errors: ['CONFLICT', 'FORBIDDEN'],
  handler: async ({ body }) => ({ user: await signUp(body) }),
});
