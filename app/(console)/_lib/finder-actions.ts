'use server';

import { bodyFromForm, schemaFields } from '@/components/schema-form/fields';
import { createQueryBodySchema } from '@/lib/finder/schema';
import { createRoleQuery } from '@/lib/finder/service';
import { defineAction } from './define-action';

/** Saves a role query and starts mining it, as POST /api/finder/person_role_search/createQuery does. */
export const createRoleQueryAction = defineAction({
  permission: 'crm.write',
  schema: createQueryBodySchema,
  input: (form, siteId) => ({ ...bodyFromForm(schemaFields(createQueryBodySchema), form), site_id: siteId }),
  run: async ({ site, input }) => (await createRoleQuery(site.id, input)).role_query.name,
  revalidate: () => ['/finder', '/workflows'],
});
