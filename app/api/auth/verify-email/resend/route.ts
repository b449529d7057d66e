import { z } from 'zod';
import { policies } from '@/lib/http/auth/policies';
import { clientIp } from '@/lib/http/client-ip';
import { defineRoute } from '@/lib/http/define-route';
import { requestOrigin } from '@/lib/http/request-origin';
import { AccountSchema } from '@/lib/users/schema';
import { resendVerification } from '@/lib/users/service';

// POST /api/auth/verify-email/resend — mail the signed-in account a new verification link
export const POST = defineRoute({
  summary: 'Send a new verification link',
  description:
    'Mails a new verification link to the signed-in account’s address; `sent: false` when it is already verified. Limits: ' +
    'ACCOUNT_MAILS_PER_ADDRESS per address and hour, AUTH_RATE_LIMIT_PER_IP per client IP and minute (429 with Retry-After).',
  tags: ['Auth'],
  auth: policies.owner,
  response: AccountSchema.extend({ sent: z.boolean().describe('A new link was mailed') }),
  status: 202,
  errors: ['RATE_LIMITED', 'PROVIDER_ERROR'],
  handler: ({ principal, req }) => resendVerification(principal.user.id, clientIp(req), requestOrigin(req)),
});
