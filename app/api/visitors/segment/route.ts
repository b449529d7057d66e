import { preflight } from '@/lib/http/cors';
import { visitorRoute } from '@/lib/http/visitor-policy';
import { SegmentMembershipSchema, segmentBodySchema } from '@/lib/visitors/schema';
import { addToSegment } from '@/lib/visitors/service';

// POST /api/visitors/segment — add a visitor to one of the site's segments
export const POST = visitorRoute({
  summary: 'Add a visitor to a segment',
  description:
    'Both the visitor and the segment must belong to the site (404 NOT_FOUND otherwise). Adding a member again is harmless: ' +
    '`already_member: true` and the first `added_at`.',
  body: segmentBodySchema,
  response: SegmentMembershipSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, body }) => addToSegment(siteId, body),
});

export const OPTIONS = preflight(['POST']);
