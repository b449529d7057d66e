'use server';

import { createAppBodySchema, createPlatformKeyBodySchema } from '@/lib/platform/schema';
import { createAppOf, createKeyForApp, revokeKeyOfSite } from '@/lib/platform/service';
import { actionGroup } from './define-action';
import { optionalNumber, text } from './forms';

const platform = actionGroup({ permission: 'platform.manage', revalidate: ['/platform'] });

/** Registers a generated app, as POST /api/sites/{id}/platform-apps does. */
export const createAppAction = platform.action({
  schema: createAppBodySchema,
  input: (form) => ({ name: text(form, 'name') }),
  run: async ({ site, input }) => (await createAppOf(site.id, input.name)).schema,
});

/** Creates a platform key; the full key travels back in this response only and is never stored in clear. */
export const createPlatformKeyAction = platform.action({
  shownOnce: true,
  schema: createPlatformKeyBodySchema,
  input: (form) => ({
    app_id: text(form, 'app_id'),
    name: text(form, 'name'),
    capabilities: form.getAll('capabilities'),
    expirationDays: optionalNumber(form, 'expirationDays'),
  }),
  run: ({ user, site, input }) => createKeyForApp(site.id, user.id, input),
  errorField: 'app_id',
});

export const revokePlatformKeyAction = platform.idAction('key_id', ({ site }, id) => revokeKeyOfSite(site.id, id));
