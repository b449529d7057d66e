import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { decryptSecureTokenBodySchema, DecryptedSecureTokenSchema, secureTokenPathSchema } from '@/lib/secure-tokens/schema';
import { decryptSecureToken } from '@/lib/secure-tokens/service';

// POST /api/secure-tokens/{id}/decrypt — a secret's value, for server-to-server use; audited and rate limited
export const POST = defineRoute({
  summary: 'Decrypt a secret',
  description:
    'Every attempt is recorded in the site’s audit (GET /api/secure-tokens/audit). Limited per API key and per site ' +
    '(SECRETS_DECRYPT_PER_KEY_PER_MINUTE, SECRETS_DECRYPT_PER_SITE_PER_MINUTE) on top of the plan. A secret that fails ' +
    'its integrity check answers 500 without detail.',
  tags: ['Secure tokens'],
  auth: policies.siteKeyWrite,
  params: secureTokenPathSchema,
  body: decryptSecureTokenBodySchema,
  response: DecryptedSecureTokenSchema,
  errors: ['NOT_FOUND', 'RATE_LIMITED', 'PROVIDER_NOT_CONFIGURED', 'SYSTEM_ERROR'],
  handler: ({ principal, siteId, params }) => decryptSecureToken(siteId, principal, params.id),
});
