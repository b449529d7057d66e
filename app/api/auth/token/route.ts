import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { presentedSessionToken } from '@/lib/http/auth/session';
import { clientOf } from '@/lib/http/client-ip';
import { defineRoute } from '@/lib/http/define-route';
import { tokenBodySchema } from '@/lib/users/schema';
import { issueToken, signOut } from '@/lib/users/service';

// POST /api/auth/token — exchange email and password for a session token
export const POST = defineRoute({
  summary: 'Get a session token',
  description:
    'Returns a session token for `Authorization: Bearer <SESSION_TOKEN>` (the same token the console keeps in its cookie). ' +
    'It stops working at `expires_at`, when it is ended (`DELETE /api/auth/token` or `DELETE /api/auth/sessions/{id}`) and when the account’s password is reset. ' +
    'Once two-factor sign-in is on, the body needs `otp` too (a current authenticator code or an unused recovery code): without it the answer is ' +
    '401 `OTP_REQUIRED` (the password was right: ask for the code and send both again); a wrong, stale or already used code is 401 `UNAUTHORIZED` and counts as a failed attempt. ' +
    'Brute-force limits: AUTH_RATE_LIMIT_PER_IP attempts per minute per client IP, AUTH_FAILURES_PER_ACCOUNT failures per 15 minutes per account (429 with Retry-After).',
  tags: ['Auth'],
  auth: policies.public,
  body: tokenBodySchema,
  response: z.object({ token: z.string(), expires_at: z.string().describe('ISO 8601') }),
  errors: ['UNAUTHORIZED', 'OTP_REQUIRED', 'RATE_LIMITED'],
  handler: ({ body, req }) => issueToken(body, clientOf(req)),
});

// DELETE /api/auth/token — sign out: end the session of the token (or console cookie) sent
export const DELETE = defineRoute({
  summary: 'End the session',
  description: 'Signs out on the server: the session token (or console cookie) this request carries is refused from now on.',
  tags: ['Auth'],
  auth: policies.owner,
  response: z.object({ signed_out: z.literal(true) }),
  handler: ({ req }) => signOut(presentedSessionToken(req) ?? ''),
});
