import { z } from 'zod';
import { siteIdSchema, uuidSchema } from '@/lib/core/schemas';

/** The longest period one read covers, in days (a leap year). */
export const MAX_RANGE_DAYS = 366;
/** Days covered when neither end of the period is given: the last 30, today included. */
export const DEFAULT_RANGE_DAYS = 30;
export const EARLIEST_DATE = '1970-01-01';
export const LATEST_DATE = '2999-12-31';

const dateSchema = (what: string) =>
  z.iso
    .date('Must be a date YYYY-MM-DD')
    .refine((v) => v >= EARLIEST_DATE && v <= LATEST_DATE, `Must be between ${EARLIEST_DATE} and ${LATEST_DATE}`)
    .describe(what);

export const TIMEZONES = ['utc', 'site'] as const;

/** How every analytics route reads its period (OpenAPI descriptions). */
export const PERIOD_DESCRIPTION =
  `Period: \`from\` and \`to\` (YYYY-MM-DD, both included; default the last ${DEFAULT_RANGE_DAYS} days up to today) in ` +
  "`timezone` `utc` (default) or `site` (the site's `business_hours.timezone`). At most " +
  `${MAX_RANGE_DAYS} days. ` +
  '`from` after `to`, a longer period, a date that does not exist or a site time zone that is not an IANA zone is 400 ' +
  '`INVALID_REQUEST` with the field in `details.issues[].path`. Bot sessions are left out.';

/**
 * The period of every analytics read. Checks that need "today" or the site (the defaults, the
 * order of the two ends, the length, the site's time zone) are the service's: the same rules
 * then hold for the console, which calls the service directly.
 */
export const rangeQuerySchema = z.strictObject({
  from: dateSchema(
    `First day of the period, included (YYYY-MM-DD in the chosen time zone). Default: ${DEFAULT_RANGE_DAYS - 1} days before \`to\``,
  ).optional(),
  to: dateSchema('Last day of the period, included. Default: today in the chosen time zone').optional(),
  timezone: z
    .enum(TIMEZONES)
    .default('utc')
    .describe("Where days start and end: `utc` (default) or `site`, the site's time zone (settings `business_hours.timezone`; UTC when it has none)"),
});

export const BREAKDOWN_DIMENSIONS = [
  'pages',
  'entry_pages',
  'exit_pages',
  'referrers',
  'utm_sources',
  'utm_mediums',
  'utm_campaigns',
  'countries',
  'devices',
  'browsers',
  'operating_systems',
  'outbound_links',
  'downloads',
] as const;
export type BreakdownDimension = (typeof BREAKDOWN_DIMENSIONS)[number];

export const breakdownParamsSchema = z.strictObject({
  site_id: siteIdSchema,
  dimension: z
    .enum(BREAKDOWN_DIMENSIONS)
    .describe(
      'pages (page views by path, with engagement), entry_pages (sessions by landing path), exit_pages (sessions by last path), ' +
        'referrers (sessions by referring host; null = direct), utm_sources, utm_mediums, utm_campaigns, countries, devices, ' +
        'browsers, operating_systems (sessions by that value; null = none), outbound_links, downloads (clicks by link URL)',
    ),
});

export const breakdownQuerySchema = rangeQuerySchema.extend({
  limit: z.coerce.number().int().min(1).max(100).default(10).describe('Rows, 1–100 (default 10), largest first'),
});

export const MAX_FUNNEL_STEPS = 10;
const stepsSchema = z
  .array(z.string().trim().min(1, 'A step needs an event name').max(200, 'An event name has at most 200 characters'))
  .min(2, 'A funnel has at least 2 steps')
  .max(MAX_FUNNEL_STEPS, `A funnel has at most ${MAX_FUNNEL_STEPS} steps`);

/** A funnel as the service takes it: the steps as a list. */
export const funnelInputSchema = rangeQuerySchema.extend({
  steps: stepsSchema.describe('Event names (`event_name` of tracked events), in order'),
});

/** A funnel in a query string: the steps comma-separated. */
export const funnelQuerySchema = rangeQuerySchema.extend({
  steps: z
    .string()
    .transform((v) => v.split(','))
    .pipe(stepsSchema)
    .describe(
      `Event names (\`event_name\` of tracked events), comma-separated, in order: 2–${MAX_FUNNEL_STEPS} steps, e.g. \`add_to_cart,checkout,purchase\``,
    ),
});

export type RangeQuery = z.input<typeof rangeQuerySchema>;
export type BreakdownQuery = z.input<typeof breakdownQuerySchema>;
export type FunnelInput = z.input<typeof funnelInputSchema>;

// ---- responses ----

export const AnalyticsRangeSchema = z.object({
  from: z.string().describe('First day, included (YYYY-MM-DD)'),
  to: z.string().describe('Last day, included'),
  timezone: z.string().describe("IANA time zone the days are counted in (`UTC` or the site's)"),
});

const rate = (what: string) => z.number().min(0).max(1).nullable().describe(`${what}, 0–1; null without sessions`);

export const FiguresSchema = z.object({
  visitors: z.number().int().describe('Distinct visitors who started a session in the period'),
  sessions: z.number().int().describe('Sessions started in the period'),
  page_views: z.number().int().describe('Page views received in the period'),
  bounce_rate: rate('Share of the sessions that saw at most one page'),
  avg_duration_ms: z.number().int().nullable().describe('Mean session duration, first to last activity (ms); null without sessions'),
  conversions: z.number().int().describe('Conversion events received in the period'),
  new_leads: z.number().int().describe('Leads created in the period'),
});

/** People and bots counted apart: the one definition of a visit the console, the stats and the workflows share. */
export const VisitCountsSchema = z.object({
  visitors: z.number().int().describe('Distinct visitors with a session started in the period'),
  sessions: z.number().int().describe('Sessions started in the period'),
});

export const OverviewSchema = z.object({
  site_id: uuidSchema,
  range: AnalyticsRangeSchema,
  totals: FiguresSchema.describe('The whole period (visitors are distinct over the whole period); people only, bot sessions left out'),
  bots: VisitCountsSchema.describe(
    'Bot sessions of the period (User-Agent of a known bot, crawler, headless browser or none) and their distinct visitors: left out of `totals` and `series`',
  ),
  series: z.array(FiguresSchema.extend({ date: z.string().describe('Day (YYYY-MM-DD)') })).describe('One entry per day of the period, oldest first'),
});

export const BreakdownItemSchema = z.object({
  value: z
    .string()
    .nullable()
    .describe('The path, host, UTM value, country code, device type, browser, operating system or link URL; null = none (direct traffic…)'),
  sessions: z.number().int().describe('Sessions with this value (pages: sessions that viewed the page; links: sessions that clicked it)'),
  page_views: z.number().int().describe('Page views (pages: of this page; others: of these sessions)'),
  bounce_rate: rate('Share of these sessions that saw at most one page (null for pages)'),
  avg_duration_ms: z.number().int().nullable().describe('Mean duration of these sessions (ms); null for pages'),
  conversions: z.number().int().nullable().describe('Conversion events of these sessions; null for pages'),
  visitors: z.number().int().nullable().describe('outbound_links, downloads: distinct visitors who clicked the link in the period; null otherwise'),
  clicks: z.number().int().nullable().describe('outbound_links, downloads: clicks on the link; null otherwise'),
  avg_engaged_ms: z
    .number()
    .int()
    .nullable()
    .describe(
      'pages: mean time the page was visible and the visitor active on it, per page left (engagement events; ms); null otherwise or without them',
    ),
  avg_scroll_depth: z
    .number()
    .int()
    .nullable()
    .describe('pages: mean deepest point reached, 0–100 % of the page (engagement events); null otherwise or without them'),
});

export const BreakdownSchema = z.object({
  site_id: uuidSchema,
  range: AnalyticsRangeSchema,
  dimension: z.enum(BREAKDOWN_DIMENSIONS),
  items: z.array(BreakdownItemSchema).describe('Largest first: page views for pages, visitors then clicks for links, sessions otherwise'),
});

export const FunnelStepSchema = z.object({
  name: z.string().describe('Event name of the step'),
  sessions: z.number().int().describe('Sessions that reached this step after all the previous ones, in order'),
  conversion_rate: rate('Share of the sessions of the first step that reached this one'),
  drop_off: z.number().int().describe('Sessions of the previous step that did not reach this one (0 for the first)'),
});

export const FunnelSchema = z.object({
  site_id: uuidSchema,
  range: AnalyticsRangeSchema,
  steps: z.array(FunnelStepSchema),
});

export type Figures = z.infer<typeof FiguresSchema>;
export type Overview = z.infer<typeof OverviewSchema>;
export type BreakdownItem = z.infer<typeof BreakdownItemSchema>;
export type Breakdown = z.infer<typeof BreakdownSchema>;
export type Funnel = z.infer<typeof FunnelSchema>;
export type AnalyticsRange = z.infer<typeof AnalyticsRangeSchema>;
export type VisitCounts = z.infer<typeof VisitCountsSchema>;
