import { paginationMeta } from '@/lib/core/schemas';
import {
  SegmentListSchema,
  SegmentResultSchema,
  createSegmentInputSchema,
  listSegmentsInputSchema,
  updateSegmentInputSchema,
} from '@/lib/segments/schema';
import { createSegment, listSegments, updateSegment } from '@/lib/segments/service';
import { defineTool } from './define-tool';

export const createSegmentTool = defineTool({
  name: 'createSegment',
  effect: 'append',
  path: 'segments/create',
  title: 'Create a segment',
  description:
    'Creates an audience segment. `name` is required; `size` is an integer ≥ 0, `estimated_value` a number ≥ 0, `language` a BCP 47 tag, `is_active` a boolean (default true), `attributes` a JSON object.',
  scope: 'write',
  creates: true,
  input: createSegmentInputSchema,
  output: SegmentResultSchema,
  run: async ({ siteId }, input) => ({ segment: await createSegment(siteId, input) }),
});

export const getSegmentsTool = defineTool({
  name: 'getSegments',
  effect: 'read',
  path: 'segments/get',
  title: 'List segments',
  description:
    "Lists the site's segments, newest first; optionally one by `segment_id` or only active/inactive ones. `limit` 1–500 (default 50), `offset`.",
  scope: 'read',
  input: listSegmentsInputSchema,
  output: SegmentListSchema,
  run: async ({ siteId }, input) => {
    const { items, total } = await listSegments(siteId, input);
    return { segments: items, ...paginationMeta(total, input.limit, input.offset) };
  },
});

export const updateSegmentTool = defineTool({
  name: 'updateSegment',
  effect: 'overwrite',
  path: 'segments/update',
  title: 'Update a segment',
  description: 'Changes the given fields of a segment (fields as create; null clears an optional field). A segment of another site is a 404.',
  scope: 'write',
  input: updateSegmentInputSchema,
  output: SegmentResultSchema,
  errors: ['NOT_FOUND'],
  run: async ({ siteId }, input) => ({ segment: await updateSegment(siteId, input) }),
});
