import { preflight } from '@/lib/http/cors';
import { visitorRoute } from '@/lib/http/visitor-policy';
import { TrackedEventSchema, trackBodySchema } from '@/lib/visitors/schema';
import { sessionMeta, trackEvent } from '@/lib/visitors/service';

// POST /api/visitors/track — record one event in a session (the ingestion hot path)
export const POST = visitorRoute({
  summary: 'Track an event',
  fastPath: 'every tracked page sends its events',
  description:
    'Records one event in the session and renews its expiry. The event is committed before the answer (concurrent events ' +
    'share one commit). `event_type`: pageview, engagement, click, outbound, download, form_submit, scroll, custom, conversion, ' +
    'error, consent; engagement needs `properties.engaged_ms` and `properties.scroll_depth`, outbound and download ' +
    '`properties.href`. Accepts JSON sent as `text/plain` (no CORS preflight: what the tag sends as a page is left). With the ' +
    "session's `consent.analytics` false only `consent` events are stored; others answer `stored: false` and only renew the " +
    'session. A session holds at most 1,000 events: the 1,001st is 409 CONFLICT and nothing is stored. A closed session is ' +
    '409 CONFLICT; a missing or expired one 404 `session_not_found`.',
  body: trackBodySchema,
  bodyReading: { type: 'beacon' },
  response: TrackedEventSchema,
  status: 201,
  errors: ['session_not_found', 'CONFLICT'],
  handler: async ({ siteId, body, res, startedAt }) => {
    const data = await trackEvent(siteId, body);
    if (!data.stored) res.status = 200;
    res.meta = sessionMeta(startedAt);
    return data;
  },
});

export const OPTIONS = preflight(['POST']);
