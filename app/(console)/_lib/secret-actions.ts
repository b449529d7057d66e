'use server';

import { createSecureTokenBodySchema } from '@/lib/secure-tokens/schema';
import { createSecureToken, removeSecureToken } from '@/lib/secure-tokens/service';
import { actionGroup } from './define-action';
import { text } from './forms';

const secrets = actionGroup({ permission: 'secrets.manage', revalidate: ['/secrets'] });

/** Stores a secret, as POST /api/secure-tokens does. The value is never sent back to the form, not even after an error. */
export const addSecretAction = secrets.action({
  schema: createSecureTokenBodySchema,
  input: (form, siteId) => ({ site_id: siteId, type: text(form, 'type'), identifier: text(form, 'identifier'), value: text(form, 'value') }),
  secret: ['value'],
  run: async ({ user, site, input }) => (await createSecureToken(site.id, { kind: 'session', user }, input)).identifier,
  errorField: 'identifier',
});

/** Deletes a secret, as DELETE /api/secure-tokens does. */
export const deleteSecretAction = secrets.idAction('token_id', ({ user, site }, id) => removeSecureToken(site.id, { kind: 'session', user }, id));
