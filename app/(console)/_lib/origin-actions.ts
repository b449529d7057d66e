'use server';

import { addSiteOriginBodySchema } from '@/lib/sites/schema';
import { addSiteOrigin, removeOrigin } from '@/lib/sites/service';
import { actionGroup } from './define-action';
import { text } from './forms';

const origins = actionGroup({ permission: 'settings.manage', revalidate: ['/origins'] });

/** Allows one more browser origin, as POST /api/sites/{id}/origins does; a duplicate is an error on the field. */
export const addOriginAction = origins.action({
  schema: addSiteOriginBodySchema,
  input: (form) => ({ origin: text(form, 'origin') }),
  run: async ({ site, input }) => (await addSiteOrigin(site.id, input.origin)).origin,
  errorField: 'origin',
});

/** Stops allowing an origin, as DELETE /api/sites/{id}/origins/{origin_id} does. */
export const removeOriginAction = origins.idAction('origin_id', ({ site }, id) => removeOrigin(site.id, id));
