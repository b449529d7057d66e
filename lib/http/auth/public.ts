import type { PublicPrincipal } from '@/lib/core/principal';
import type { AuthStrategy } from './strategy';

/** No credential: sign-up, token, health, the OpenAPI document. */
export const publicStrategy: AuthStrategy<PublicPrincipal> = {
  kind: 'public',
  applies: () => true,
  authenticate: async () => ({ kind: 'public' }),
  tenant: async (_principal, [siteId]) => siteId,
  limitSubject: () => ({ bucket: 'public' }),
  schemes: {},
  security: () => [],
  note: () => 'No authentication.',
  errors: [],
};
