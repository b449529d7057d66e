'use server';

import { createSegmentInputSchema } from '@/lib/segments/schema';
import { createSegment } from '@/lib/segments/service';
import { defineAction } from './define-action';
import { optionalText } from './forms';

/** Creates a segment, as POST /api/agents/tools/segments/create does. */
export const createSegmentAction = defineAction({
  permission: 'crm.write',
  schema: createSegmentInputSchema,
  input: (form, siteId) => ({
    site_id: siteId,
    name: optionalText(form, 'name') ?? '',
    description: optionalText(form, 'description'),
    audience: optionalText(form, 'audience'),
    language: optionalText(form, 'language'),
  }),
  errorField: 'name',
  run: async ({ site, input }) => (await createSegment(site.id, input)).name,
  revalidate: () => ['/segments', '/leads'],
});
