'use server';

import { createKeyBodySchema } from '@/lib/keys/schema';
import { createKeyForUser, revokeKeyForUser } from '@/lib/keys/service';
import { actionGroup } from './define-action';
import { optionalNumber, optionalText, text } from './forms';

const keys = actionGroup({ permission: 'keys.manage', revalidate: ['/keys'] });

/** Creates a key; the full key travels back in this response only and is never stored in clear. */
export const createKeyAction = keys.action({
  shownOnce: true,
  schema: createKeyBodySchema,
  input: (form, siteId) => ({
    name: text(form, 'name'),
    scopes: form.getAll('scopes'),
    site_id: siteId,
    expirationDays: optionalNumber(form, 'expirationDays'),
    prefix: optionalText(form, 'prefix'),
  }),
  run: ({ user, site, input }) => createKeyForUser(user, site.id, input),
  // The next key usually shares the prefix, scopes and expiry: only the name starts empty again.
  refill: (values) => ({ ...values, name: '' }),
});

export const revokeKeyAction = keys.idAction('key_id', ({ user, site }, id) => revokeKeyForUser(user, site.id, id));
