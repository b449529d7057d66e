import { platformKey } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { platformTrackBodySchema } from '@/lib/platform/schema';
import { trackForApp } from '@/lib/platform/service';
import { TrackedEventSchema } from '@/lib/visitors/schema';

// POST /api/platform/tracking/event — record a custom tracking event in a visitor session of the site
export const POST = defineRoute({
  summary: 'Track an event (platform)',
  description:
    'The same ingestion as POST /api/visitors/track, for the generated app: the event is recorded in a live session of the ' +
    "key's site (`site_id` may be omitted: the key names the site). Consent, the 1,000-event cap (409) and a missing or " +
    'expired session (404 `session_not_found`) behave the same. One unit of the daily `tracking.event.write` quota per ' +
    'event, given back when the event is refused.',
  tags: ['Platform API'],
  auth: platformKey(['tracking.event.write']),
  body: platformTrackBodySchema,
  response: TrackedEventSchema,
  status: 201,
  openapi: { alsoSucceeds: { 200: 'The session took the activity but the event was not stored (consent.analytics is false)' } },
  errors: ['session_not_found', 'CONFLICT', 'RATE_LIMITED'],
  handler: async ({ principal, body, res }) => {
    const { site_id: _site, ...input } = body;
    const data = await trackForApp(principal, input);
    if (!data.stored) res.status = 200;
    return data;
  },
});
