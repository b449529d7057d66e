'use server';

import { z } from 'zod';
import { uuidSchema } from '@/lib/core/schemas';
import { createKeyBodySchema } from '@/lib/keys/schema';
import { createKeyForUser, revokeKeyForUser } from '@/lib/keys/service';
import { defineAction } from './define-action';
import { optionalNumber, optionalText, text } from './forms';

/** Creates a key; the full key travels back in this response only and is never stored in clear. */
export const createKeyAction = defineAction({
  shownOnce: true,
  permission: 'keys.manage',
  schema: createKeyBodySchema,
  input: (form, siteId) => ({
    name: text(form, 'name'),
    scopes: form.getAll('scopes'),
    site_id: siteId,
    expirationDays: optionalNumber(form, 'expirationDays'),
    prefix: optionalText(form, 'prefix'),
  }),
  run: ({ user, site, input }) => createKeyForUser(user, site.id, input),
  revalidate: () => ['/keys'],
  // The next key usually shares the prefix, scopes and expiry: only the name starts empty again.
  refill: (values) => ({ ...values, name: '' }),
});

export const revokeKeyAction = defineAction({
  permission: 'keys.manage',
  schema: z.object({ key_id: uuidSchema }),
  run: async ({ user, site, input }) => {
    await revokeKeyForUser(user, site.id, input.key_id);
  },
  revalidate: () => ['/keys'],
});
