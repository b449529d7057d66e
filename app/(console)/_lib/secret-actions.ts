'use server';

import { z } from 'zod';
import { uuidSchema } from '@/lib/core/schemas';
import { createSecureTokenBodySchema } from '@/lib/secure-tokens/schema';
import { createSecureToken, removeSecureToken } from '@/lib/secure-tokens/service';
import { defineAction } from './define-action';
import { text } from './forms';

/** Stores a secret, as POST /api/secure-tokens does. The value is never sent back to the form, not even after an error. */
export const addSecretAction = defineAction({
  permission: 'secrets.manage',
  schema: createSecureTokenBodySchema,
  input: (form, siteId) => ({ site_id: siteId, type: text(form, 'type'), identifier: text(form, 'identifier'), value: text(form, 'value') }),
  secret: ['value'],
  run: async ({ user, site, input }) => (await createSecureToken(site.id, { kind: 'session', user }, input)).identifier,
  errorField: 'identifier',
  revalidate: () => ['/secrets'],
});

/** Deletes a secret, as DELETE /api/secure-tokens does. */
export const deleteSecretAction = defineAction({
  permission: 'secrets.manage',
  schema: z.object({ token_id: uuidSchema }),
  run: async ({ user, site, input }) => {
    await removeSecureToken(site.id, { kind: 'session', user }, input.token_id);
  },
  revalidate: () => ['/secrets'],
});
