import { z } from 'zod';
import { defineRoute } from '@/lib/http/define-route';
import { issueToken } from '@/lib/users/service';
import { tokenBodySchema } from '@/lib/users/schema';

// POST /api/auth/token — exchange email and password for a session token
export const POST = defineRoute({
  summary: 'Get a session token',
  description: 'Returns a session token for `Authorization: Bearer <SESSION_TOKEN>` (the same token the console keeps in its cookie).',
  tags: ['Auth'],
  auth: { kind: 'public' },
  body: tokenBodySchema,
  response: z.object({ token: z.string(), expires_at: z.string().describe('ISO 8601') }),
  errors: ['UNAUTHORIZED'],
  handler: ({ body }) => issueToken(body.email, body.password),
});
