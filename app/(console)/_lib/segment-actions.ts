'use server';

import { z } from 'zod';
import { uuidSchema } from '@/lib/core/schemas';
import { createSegmentInputSchema, updateSegmentInputSchema } from '@/lib/segments/schema';
import { createSegment, deleteSegment, updateSegment } from '@/lib/segments/service';
import { defineAction } from './define-action';
import { optionalText, text } from './forms';

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

/** Edits a segment, as POST /api/agents/tools/segments/update does: an emptied optional field is cleared. */
export const updateSegmentAction = defineAction({
  permission: 'crm.write',
  schema: updateSegmentInputSchema,
  input: (form, siteId) => ({
    site_id: siteId,
    segment_id: text(form, 'segment_id'),
    name: text(form, 'name'),
    description: optionalText(form, 'description') ?? null,
    audience: optionalText(form, 'audience') ?? null,
    language: optionalText(form, 'language') ?? null,
    is_active: form.get('is_active') === 'on',
  }),
  errorField: 'name',
  run: async ({ site, input }) => (await updateSegment(site.id, input)).name,
  revalidate: (input) => ['/segments', `/segments/${input.segment_id}`, '/leads'],
  refill: (values) => values,
});

/** Deletes a segment; its leads stay, without a segment. */
export const deleteSegmentAction = defineAction({
  permission: 'crm.write',
  schema: z.object({ segment_id: uuidSchema }),
  run: async ({ site, input }) => {
    await deleteSegment(site.id, input.segment_id);
    return site.id;
  },
  revalidate: () => ['/segments', '/leads'],
  redirect: (siteId) => `/console/sites/${siteId}/segments`,
});
