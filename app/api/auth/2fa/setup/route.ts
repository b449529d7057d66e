import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { TwoFactorSetupSchema } from '@/lib/users/schema';
import { setUpTwoFactor } from '@/lib/users/service';

// POST /api/auth/2fa/setup — a new authenticator secret for the signed-in account, pending until enabled
export const POST = defineRoute({
  summary: 'Set up two-factor sign-in',
  description:
    'Makes a new TOTP secret (RFC 6238: SHA-1, 6 digits, 30 seconds) for an authenticator app: as base32 text, as an `otpauth://` URI and as a ' +
    'QR code (SVG). It is pending, and sign-in is unchanged, until `POST /api/auth/2fa/enable` confirms a code of it; setting up again replaces ' +
    'a pending secret. 409 once two-factor sign-in is on (turn it off first).',
  tags: ['Auth'],
  auth: policies.owner,
  response: TwoFactorSetupSchema,
  errors: ['CONFLICT'],
  handler: ({ principal }) => setUpTwoFactor(principal.user.id),
});
