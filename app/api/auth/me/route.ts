import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { AccountSchema } from '@/lib/users/schema';
import { accountOf } from '@/lib/users/service';

// GET /api/auth/me — the signed-in account
export const GET = defineRoute({
  summary: 'The signed-in account',
  tags: ['Auth'],
  auth: policies.owner,
  response: AccountSchema,
  handler: ({ principal }) => accountOf(principal.user.id),
});
