import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { clientIp } from '@/lib/http/client-ip';
import { defineRoute } from '@/lib/http/define-route';
import { tokenBodySchema } from '@/lib/users/schema';
import { issueToken } from '@/lib/users/service';

// POST /api/auth/token — exchange email and password for a session token
export const POST = defineRoute({
  summary: 'Get a session token',
  description:
    'Returns a session token for `Authorization: Bearer <SESSION_TOKEN>` (the same token the console keeps in its cookie). ' +
    'Brute-force limits: AUTH_RATE_LIMIT_PER_IP attempts per minute per client IP, AUTH_FAILURES_PER_ACCOUNT failures per 15 minutes per account (429 with Retry-After).',
  tags: ['Auth'],
  auth: policies.public,
  body: tokenBodySchema,
  response: z.object({ token: z.string(), expires_at: z.string().describe('ISO 8601') }),
  errors: ['UNAUTHORIZED', 'RATE_LIMITED'],
  handler: ({ body, req }) => issueToken(body.email, body.password, clientIp(req)),
});
