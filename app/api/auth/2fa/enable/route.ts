import { policies } from '@/lib/http/auth/policies';
import { clientOf } from '@/lib/http/client-ip';
import { defineRoute } from '@/lib/http/define-route';
import { RecoveryCodesSchema, twoFactorCodeBodySchema } from '@/lib/users/schema';
import { enableTwoFactor } from '@/lib/users/service';

// POST /api/auth/2fa/enable — turn two-factor sign-in on with a first code of the pending secret
export const POST = defineRoute({
  summary: 'Turn two-factor sign-in on',
  description:
    'Confirms the pending secret of `POST /api/auth/2fa/setup` with a current code of the authenticator app. From then on every sign-in with ' +
    'the password (`POST /api/auth/token`, the console) also needs `otp`. Answers ten single-use recovery codes, this once: only their hashes are ' +
    'kept. A wrong code → 400 and counts toward the account’s failed-attempt lockout (429).',
  tags: ['Auth'],
  auth: policies.owner,
  body: twoFactorCodeBodySchema,
  response: RecoveryCodesSchema,
  errors: ['CONFLICT', 'RATE_LIMITED'],
  handler: ({ principal, body, req }) => enableTwoFactor(principal.user.id, body.code, clientOf(req)),
});
