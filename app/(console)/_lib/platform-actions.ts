'use server';

import { z } from 'zod';
import { uuidSchema } from '@/lib/core/schemas';
import { createAppBodySchema, createPlatformKeyBodySchema } from '@/lib/platform/schema';
import { createAppOf, createKeyForApp, revokeKeyOfSite } from '@/lib/platform/service';
import { defineAction } from './define-action';
import { optionalNumber, text } from './forms';

/** Registers a generated app, as POST /api/sites/{id}/platform-apps does. */
export const createAppAction = defineAction({
  permission: 'platform.manage',
  schema: createAppBodySchema,
  input: (form) => ({ name: text(form, 'name') }),
  run: async ({ site, input }) => (await createAppOf(site.id, input.name)).schema,
  revalidate: () => ['/platform'],
});

/** Creates a platform key; the full key travels back in this response only and is never stored in clear. */
export const createPlatformKeyAction = defineAction({
  shownOnce: true,
  permission: 'platform.manage',
  schema: createPlatformKeyBodySchema,
  input: (form) => ({
    app_id: text(form, 'app_id'),
    name: text(form, 'name'),
    capabilities: form.getAll('capabilities'),
    expirationDays: optionalNumber(form, 'expirationDays'),
  }),
  run: ({ user, site, input }) => createKeyForApp(site.id, user.id, input),
  errorField: 'app_id',
  revalidate: () => ['/platform'],
});

export const revokePlatformKeyAction = defineAction({
  permission: 'platform.manage',
  schema: z.object({ key_id: uuidSchema }),
  run: async ({ site, input }) => {
    await revokeKeyOfSite(site.id, input.key_id);
  },
  revalidate: () => ['/platform'],
});
