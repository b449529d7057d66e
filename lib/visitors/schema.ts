import { z } from 'zod';
import { INT4_MAX, paginationQuerySchema, siteIdSchema, uuidSchema } from '@/lib/core/schemas';

/** Limits of §8 (session lifetime: ./lifetime.ts). */
export const MAX_EVENTS_PER_SESSION = 1000;
export const MAX_CUSTOM_DATA_BYTES = 50 * 1024;
export const API_VERSION = '1.0';

const ms = (what: string) => z.number().int().min(0).describe(`${what} (epoch milliseconds)`);
const durationMs = (what: string) => z.number().int().min(0).describe(`${what} (milliseconds)`);
const pageViews = (what: string) => z.number().int().min(0).max(INT4_MAX).describe(what);
const text = (what: string, max = 2048) => z.string().max(max).describe(what);
const urlText = (what: string) => z.string().max(4096).describe(what);

const jsonSize = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');
const customDataSchema = z
  .record(z.string(), z.unknown())
  .refine((v) => jsonSize(v) <= MAX_CUSTOM_DATA_BYTES, `custom_data must be at most ${MAX_CUSTOM_DATA_BYTES} bytes serialized (50 KB)`)
  .describe('Free-form data, at most 50 KB serialized');

export const deviceSchema = z
  .strictObject({
    type: text('Device type, e.g. desktop, mobile, tablet', 50).optional(),
    screen_size: z
      .string()
      .regex(/^\d{1,5}x\d{1,5}$/, 'Must be WIDTHxHEIGHT, e.g. 1920x1080')
      .describe('Screen size, width x height')
      .optional(),
    os: z
      .strictObject({ name: text('OS name', 100).optional(), version: text('OS version', 100).optional() })
      .describe('Operating system')
      .optional(),
    pixel_ratio: z.number().positive().max(20).describe('Device pixel ratio').optional(),
    orientation: text('Screen orientation, e.g. portrait, landscape', 50).optional(),
    memory: z.number().min(0).describe('Device memory (MB)').optional(),
    cpu_cores: z.number().int().min(0).max(1024).describe('Logical CPU cores').optional(),
    touch_support: z.boolean().describe('Touch input available').optional(),
  })
  .describe('Device; missing parts are filled from User-Agent');

export const browserSchema = z
  .strictObject({
    name: text('Browser name', 100).optional(),
    version: text('Browser version', 100).optional(),
    language: text('Preferred language, e.g. en-US', 100).optional(),
  })
  .describe('Browser; missing parts are filled from User-Agent and Accept-Language');

export const locationSchema = z
  .strictObject({
    country: text('Country (ISO 3166-1 alpha-2 when derived from headers)', 100).optional(),
    region: text('Region', 100).optional(),
    city: text('City', 100).optional(),
  })
  .describe('Location; missing parts are filled from edge geo headers');

export const performanceSchema = z
  .strictObject({
    page_load_time: durationMs('Page load time').optional(),
    first_paint: durationMs('First paint').optional(),
    first_contentful_paint: durationMs('First contentful paint').optional(),
    dom_interactive: durationMs('DOM interactive').optional(),
  })
  .describe('Page performance timings');

export const consentSchema = z
  .strictObject({
    necessary: z.boolean().describe('Strictly necessary processing (always on)').optional(),
    analytics: z.boolean().describe('Analytics; when false only strictly necessary events are stored').optional(),
    marketing: z.boolean().describe('Marketing').optional(),
    preferences: z.boolean().describe('Preferences').optional(),
  })
  .describe('GDPR consent flags. Absent flags count as granted.');

export const EXIT_TYPES = ['bounce', 'exit', 'timeout'] as const;
export const exitTypeSchema = z.enum(EXIT_TYPES).describe('How the session ended: bounce, exit or timeout');

const utm = {
  utm_source: text('UTM source', 500).optional(),
  utm_medium: text('UTM medium', 500).optional(),
  utm_campaign: text('UTM campaign', 500).optional(),
  utm_term: text('UTM term', 500).optional(),
  utm_content: text('UTM content', 500).optional(),
};

/** POST /api/visitors/session — fields of §2.4; only site_id is required. */
export const createSessionBodySchema = z.strictObject({
  site_id: siteIdSchema,
  fingerprint: text('Browser/device fingerprint; its active session at this site is reused', 512).optional(),
  url: urlText('Initial URL').optional(),
  referrer: urlText('Referrer').optional(),
  ...utm,
  started_at: ms('Session start as seen by the client').optional(),
  last_activity_at: ms('Last activity as seen by the client').optional(),
  duration: durationMs('Duration so far').optional(),
  page_views: pageViews('Page views so far').optional(),
  active_time: durationMs('Active time').optional(),
  idle_time: durationMs('Idle time').optional(),
  exit_url: urlText('Exit URL').optional(),
  exit_type: exitTypeSchema.optional(),
  lead_id: uuidSchema.describe('Lead of this site the visitor is known as').optional(),
  previous_session_id: uuidSchema.describe('Previous session of the same visitor (set by the server when it knows it)').optional(),
  device: deviceSchema.optional(),
  browser: browserSchema.optional(),
  location: locationSchema.optional(),
  performance: performanceSchema.optional(),
  consent: consentSchema.optional(),
  privacy_signal: z
    .boolean()
    .describe(
      'The browser asks not to be tracked (Global Privacy Control or Do Not Track; the `Sec-GPC: 1` and `DNT: 1` headers count too). ' +
        'When the site honours it (settings `tracking.respect_gpc`, default on) the visit is anonymous: see `anonymous` in the answer',
    )
    .optional(),
  custom_data: customDataSchema.optional(),
});

export const sessionQuerySchema = z.strictObject({
  session_id: uuidSchema.describe('Session id'),
  site_id: siteIdSchema,
});

export const updateSessionBodySchema = z.strictObject({
  session_id: uuidSchema.describe('Session id'),
  site_id: siteIdSchema,
  last_activity_at: ms('Last activity as seen by the client (never later than server time)').optional(),
  current_url: urlText('URL the visitor is on').optional(),
  page_views: pageViews('Page views so far').optional(),
  active_time: durationMs('Active time so far').optional(),
  idle_time: durationMs('Idle time so far').optional(),
  consent: consentSchema.optional(),
  custom_data: customDataSchema.describe('Free-form data, at most 50 KB serialized; replaces the stored object').optional(),
});

const endFields = {
  site_id: siteIdSchema.optional().describe('Site id; required for browser calls without an API key'),
  exit_url: urlText('Exit URL').optional(),
  exit_type: exitTypeSchema.optional(),
  duration: durationMs('Session duration').optional(),
  page_views: pageViews('Page views in the session').optional(),
};
export const endSessionBodySchema = z.strictObject(endFields);
export const endSessionByBodySchema = z.strictObject({ session_id: uuidSchema.describe('Session to close'), ...endFields });

export const sessionParamsSchema = z.strictObject({ session_id: uuidSchema.describe('Session id') });

export const identifySessionBodySchema = z.strictObject({
  site_id: siteIdSchema.optional().describe('Site id; required for browser calls without an API key'),
  lead_id: uuidSchema.describe('Lead of this site to bind to the session and its visitor'),
  lead_data: z
    .record(z.string(), z.unknown())
    .refine((v) => jsonSize(v) <= MAX_CUSTOM_DATA_BYTES, 'lead_data must be at most 50 KB serialized')
    .describe('Lead attributes as the client knows them; stored with the session (at most 50 KB)')
    .optional(),
});

export const sessionListQuerySchema = paginationQuerySchema
  .extend({
    site_id: siteIdSchema.optional(),
    from: z.coerce.number().int().min(0).describe('Sessions started at or after this time (epoch ms)').optional(),
    to: z.coerce.number().int().min(0).describe('Sessions started at or before this time (epoch ms)').optional(),
  })
  .strict();

export const visitorParamsSchema = z.strictObject({ visitor_id: uuidSchema.describe('Visitor id') });
export const leadParamsSchema = z.strictObject({ lead_id: uuidSchema.describe('Lead id') });

/**
 * The event_type vocabulary. `consent` is the one strictly necessary type: it is stored even
 * when the session's consent.analytics is false (it records the visitor's choice). The tag sends
 * `engagement` when a page is left, `outbound` and `download` for link clicks, `form_submit` for
 * submitted forms (never a field's value).
 */
export const EVENT_TYPES = [
  'pageview',
  'engagement',
  'click',
  'outbound',
  'download',
  'form_submit',
  'scroll',
  'custom',
  'conversion',
  'error',
  'consent',
] as const;
/** The longest engagement one page can report (the 24-hour session cap). */
export const MAX_ENGAGED_MS = 24 * 60 * 60 * 1000;
export const NECESSARY_EVENT_TYPES: readonly EventType[] = ['consent'];
export type EventType = (typeof EVENT_TYPES)[number];

/** The fields of a tracked event; `trackBodySchema` adds the checks of each type's properties. */
export const trackFieldsSchema = z.strictObject({
  site_id: siteIdSchema,
  session_id: uuidSchema.describe('Session the event belongs to (renews its expiry)'),
  visitor_id: uuidSchema.describe("Visitor id; when given it must be the session's visitor").optional(),
  event_type: z
    .enum(EVENT_TYPES)
    .describe(
      'pageview, engagement (a page left: properties.engaged_ms and properties.scroll_depth required), click, outbound and ' +
        'download (a link clicked: properties.href required), form_submit, scroll, custom, conversion, error, or consent (strictly necessary)',
    ),
  event_name: text('Name of the event, e.g. signup_click (recommended for custom)', 200).optional(),
  url: urlText('URL where the event happened').optional(),
  timestamp: ms('When the event happened (default: when received)').optional(),
  properties: z
    .record(z.string(), z.unknown())
    .refine((v) => jsonSize(v) <= MAX_CUSTOM_DATA_BYTES, 'properties must be at most 50 KB serialized')
    .describe('Free-form event data, at most 50 KB serialized')
    .optional(),
});

/** The properties an event type needs (engagement: its figures; outbound and download: the link). */
export function checkEventProperties(event: Pick<z.infer<typeof trackFieldsSchema>, 'event_type' | 'properties'>, ctx: z.RefinementCtx): void {
  const props = event.properties ?? {};
  const need = (key: string, ok: (v: unknown) => boolean, what: string) => {
    if (!ok(props[key])) ctx.addIssue({ code: 'custom', path: ['properties', key], message: `${event.event_type} events need ${what}` });
  };
  const integer = (min: number, max: number) => (v: unknown) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
  if (event.event_type === 'engagement') {
    need('engaged_ms', integer(0, MAX_ENGAGED_MS), `properties.engaged_ms, an integer from 0 to ${MAX_ENGAGED_MS} (ms)`);
    need('scroll_depth', integer(0, 100), 'properties.scroll_depth, an integer from 0 to 100 (%)');
  } else if (event.event_type === 'outbound' || event.event_type === 'download') {
    need('href', (v) => typeof v === 'string' && v.length > 0 && v.length <= 4096, "properties.href, the link's URL (at most 4096 characters)");
  }
}

export const trackBodySchema = trackFieldsSchema.superRefine(checkEventProperties);

export const identifyBodySchema = z
  .strictObject({
    site_id: siteIdSchema,
    session_id: uuidSchema.describe('Session of the visitor being identified (this or visitor_id is required)').optional(),
    visitor_id: uuidSchema
      .describe("Visitor being identified (this or session_id is required); with session_id it must be the session's visitor")
      .optional(),
    email: z.string().trim().toLowerCase().email().max(320).describe('Email of the person (stored lower-case)'),
    firstName: text('First name', 200).optional(),
    lastName: text('Last name', 200).optional(),
  })
  .refine((b) => b.session_id !== undefined || b.visitor_id !== undefined, { message: 'session_id or visitor_id is required', path: ['session_id'] });

export const segmentBodySchema = z.strictObject({
  site_id: siteIdSchema,
  visitor_id: uuidSchema.describe('Visitor to add'),
  segment_id: uuidSchema.describe('Segment of this site'),
});

// ---- responses ----

export const sessionMetaSchema = z.object({
  api_version: z.string(),
  server_time: z.number().describe('Server time (epoch ms)'),
  processing_time: z.number().describe('Time spent on the request (ms)'),
});

export const CreatedSessionSchema = z.object({
  session_id: uuidSchema,
  visitor_id: uuidSchema,
  fingerprint: z.string().nullable(),
  site_id: uuidSchema,
  created_at: ms('Creation time'),
  last_activity_at: ms('Last activity').optional().describe('Returned when an existing active session is reused'),
  expires_at: ms('Expiry (the inactivity limit, 30 min by default, after the last activity; at most 24 h after creation)'),
  ttl: z.number().int().describe('Seconds until expiry (1800 after any activity with the default inactivity limit)'),
  session_url: z.string().describe('GET path of this session'),
  is_new_session: z.boolean(),
  previous_session_id: uuidSchema.nullable(),
  is_bot: z.boolean().describe('The User-Agent is a known bot or crawler'),
  anonymous: z
    .boolean()
    .describe(
      'The visit is counted without a stored visitor id: the site is in cookieless mode, or it honours the browser’s privacy signal. ' +
        'The visitor is a daily id computed here from the site, the IP address and the User-Agent (none of them stored); the tag ' +
        "keeps nothing in the browser's storage",
    ),
});

export const SessionEventSchema = z.object({
  event_id: uuidSchema,
  event_type: z.string(),
  event_name: z.string().nullable(),
  url: z.string().nullable(),
  timestamp: ms('Event time'),
  properties: z.record(z.string(), z.unknown()).nullable(),
});

const SESSION_STATUSES = ['active', 'closed', 'expired'] as const;

export const SessionSummarySchema = z.object({
  session_id: uuidSchema,
  visitor_id: uuidSchema,
  fingerprint: z.string().nullable(),
  site_id: uuidSchema,
  lead_id: uuidSchema.nullable(),
  previous_session_id: uuidSchema.nullable(),
  status: z.enum(SESSION_STATUSES).describe('active, closed (ended by the end route) or expired'),
  url: z.string().nullable(),
  current_url: z.string().nullable(),
  referrer: z.string().nullable(),
  utm_source: z.string().nullable(),
  utm_medium: z.string().nullable(),
  utm_campaign: z.string().nullable(),
  utm_term: z.string().nullable(),
  utm_content: z.string().nullable(),
  created_at: ms('Creation time'),
  started_at: ms('Start'),
  last_activity_at: ms('Last activity'),
  updated_at: ms('Last update'),
  expires_at: ms('Expiry'),
  ended_at: ms('End').nullable(),
  duration: z.number().nullable().describe('ms'),
  page_views: z.number().int(),
  active_time: z.number().nullable().describe('ms'),
  idle_time: z.number().nullable().describe('ms'),
  exit_url: z.string().nullable(),
  exit_type: z.enum(EXIT_TYPES).nullable(),
  device: z.record(z.string(), z.unknown()).nullable(),
  browser: z.record(z.string(), z.unknown()).nullable(),
  location: z.record(z.string(), z.unknown()).nullable(),
  performance: z.record(z.string(), z.unknown()).nullable(),
  consent: z.record(z.string(), z.unknown()).nullable(),
  custom_data: z.record(z.string(), z.unknown()).nullable(),
  lead_data: z.record(z.string(), z.unknown()).nullable(),
  is_bot: z.boolean(),
  event_count: z.number().int(),
  conversions: z.number().int().describe('Conversion events stored in the session'),
});

export const SessionDetailSchema = SessionSummarySchema.extend({
  ttl: z.number().int().describe('Seconds until expiry (0 once closed)'),
  session_url: z.string(),
  events: z.array(SessionEventSchema).describe('Stored events, oldest first (at most 1,000)'),
});

export const UpdatedSessionSchema = z.object({
  session_id: uuidSchema,
  visitor_id: uuidSchema,
  fingerprint: z.string().nullable(),
  last_activity_at: ms('Last activity'),
  updated_at: ms('Update time'),
  expires_at: ms('Expiry'),
  ttl: z.number().int(),
});

export const TrackedEventSchema = z.object({
  event_id: uuidSchema.nullable().describe('Null when the event was not stored (consent)'),
  session_id: uuidSchema,
  visitor_id: uuidSchema,
  event_type: z.string(),
  timestamp: ms('Event time'),
  stored: z.boolean().describe('False when consent.analytics is false and the event is not strictly necessary'),
  expires_at: ms('Renewed session expiry'),
});

export const IdentifiedSchema = z.object({
  lead_id: uuidSchema,
  visitor_id: uuidSchema,
  session_id: uuidSchema.nullable().describe('The session bound to the lead; null when only visitor_id was given'),
  email: z.string(),
  name: z.string(),
  is_new_lead: z.boolean(),
});

export const SessionIdentifiedSchema = z.object({
  session_id: uuidSchema,
  visitor_id: uuidSchema,
  lead_id: uuidSchema,
});

export const SegmentMembershipSchema = z.object({
  visitor_id: uuidSchema,
  segment_id: uuidSchema,
  added_at: ms('When the visitor joined the segment'),
  already_member: z.boolean(),
});

export const VisitorSchema = z.object({
  visitor_id: uuidSchema,
  site_id: uuidSchema,
  fingerprint: z.string().nullable(),
  lead_id: uuidSchema.nullable(),
  is_bot: z.boolean(),
  first_seen_at: ms('First session'),
  last_seen_at: ms('Last activity'),
  session_count: z.number().int(),
});

export type CreateSessionInput = z.infer<typeof createSessionBodySchema>;
export type UpdateSessionInput = z.infer<typeof updateSessionBodySchema>;
export type EndSessionInput = z.infer<typeof endSessionBodySchema>;
export type TrackInput = z.infer<typeof trackBodySchema>;
export type SessionSummary = z.infer<typeof SessionSummarySchema>;
export type SessionEvent = z.infer<typeof SessionEventSchema>;
export type Visitor = z.infer<typeof VisitorSchema>;
export type SessionListQuery = z.infer<typeof sessionListQuerySchema>;

export const END_SESSION_DESCRIPTION =
  'Closes the session: status `closed`, `ended_at` now; `exit_url`, `exit_type` (bounce, exit, timeout), `duration` (ms, ' +
  'default: since creation) and `page_views` are recorded. A closed session stays readable with GET; ending it again ' +
  'returns it unchanged; a missing or expired session is 404 `session_not_found`. Accepts JSON sent as `text/plain`, so ' +
  '`navigator.sendBeacon` can call it on page hide without a CORS preflight.';
