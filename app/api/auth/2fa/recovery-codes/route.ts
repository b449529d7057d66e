import { policies } from '@/lib/http/auth/policies';
import { clientOf } from '@/lib/http/client-ip';
import { defineRoute } from '@/lib/http/define-route';
import { RecoveryCodesSchema, twoFactorCodeBodySchema } from '@/lib/users/schema';
import { regenerateRecoveryCodes } from '@/lib/users/service';

// POST /api/auth/2fa/recovery-codes — ten new recovery codes; the old ones stop working
export const POST = defineRoute({
  summary: 'New recovery codes',
  description:
    'Needs a current code of the authenticator app (not a recovery code). Answers ten new single-use recovery codes, this once; every earlier ' +
    'code stops working. A wrong code → 400 and counts toward the failed-attempt lockout (429).',
  tags: ['Auth'],
  auth: policies.owner,
  body: twoFactorCodeBodySchema,
  response: RecoveryCodesSchema,
  errors: ['RATE_LIMITED'],
  handler: ({ principal, body, req }) => regenerateRecoveryCodes(principal.user.id, body.code, clientOf(req)),
});
