import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { leadPathSchema, timelineQuerySchema, TimelineSchema } from '@/lib/people/schema';
import { timelineOf } from '@/lib/people/service';

// GET /api/leads/{lead_id}/timeline — everything that happened with a lead, newest first, cursor-paged
export const GET = defineRoute({
  summary: "A lead's timeline",
  description:
    'One list, newest first, of `{type, at, id, …}`: `session` (a visit with its `pages`), `event` (conversions, forms, custom events, ' +
    'downloads and outbound clicks), `email` (in and out), `note`, `status_change`, `field_change` (`field`, `from_value`, `to_value`; ' +
    '`merged` when another lead was merged in), `conversation` (an agent’s conversation) and `sequence` (enrollment `started`, ' +
    '`stopped`, `completed`, `step_sent`). Pass `next_cursor` as `cursor` for the next page.',
  tags: ['People'],
  auth: policies.keyOrMember,
  params: leadPathSchema,
  query: timelineQuerySchema,
  response: TimelineSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params, query }) => timelineOf(siteId, params.lead_id, query),
});
