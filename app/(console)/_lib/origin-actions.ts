'use server';

import { z } from 'zod';
import { uuidSchema } from '@/lib/core/schemas';
import { addSiteOriginBodySchema } from '@/lib/sites/schema';
import { addSiteOrigin, removeOrigin } from '@/lib/sites/service';
import { defineAction } from './define-action';
import { text } from './forms';

/** Allows one more browser origin, as POST /api/sites/{id}/origins does; a duplicate is an error on the field. */
export const addOriginAction = defineAction({
  permission: 'settings.manage',
  schema: addSiteOriginBodySchema,
  input: (form) => ({ origin: text(form, 'origin') }),
  run: async ({ site, input }) => (await addSiteOrigin(site.id, input.origin)).origin,
  errorField: 'origin',
  revalidate: () => ['/origins'],
});

/** Stops allowing an origin, as DELETE /api/sites/{id}/origins/{origin_id} does. */
export const removeOriginAction = defineAction({
  permission: 'settings.manage',
  schema: z.object({ origin_id: uuidSchema }),
  run: async ({ site, input }) => {
    await removeOrigin(site.id, input.origin_id);
  },
  revalidate: () => ['/origins'],
});
