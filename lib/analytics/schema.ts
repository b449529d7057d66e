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

export const FILTER_DIMENSIONS = [
  'page',
  'entry_page',
  'exit_page',
  'referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'country',
  'device',
  'browser',
  'os',
  'goal',
] as const;
export type FilterDimension = (typeof FILTER_DIMENSIONS)[number];
export const MAX_FILTERS = 20;
/** The value a filter names for "none": direct traffic, no campaign, unknown country. */
export const NONE_VALUE = '(none)';

/** How every analytics route reads its filters (OpenAPI descriptions). */
export const FILTER_DESCRIPTION =
  `Filters, repeatable, all applying (AND), at most ${MAX_FILTERS}: \`filter=<dimension>:<value>\` keeps the visits that match, ` +
  `\`filter=<dimension>!:<value>\` leaves them out. Dimensions: ${FILTER_DIMENSIONS.map((d) => `\`${d}\``).join(', ')}. ` +
  '`page` keeps the sessions that viewed the page and, of their page views, those of the page (`page!:` the sessions that never ' +
  'viewed it); `goal` keeps the sessions that reached the named goal (GET /sites/{site_id}/goals); the others match the ' +
  `session's value. \`${NONE_VALUE}\` stands for none (direct traffic, no campaign, unknown country); in \`page\`, ` +
  '`entry_page` and `exit_page` a `*` matches any characters (`/blog/*`). An unknown dimension, an empty value or another shape ' +
  'is 400 `INVALID_REQUEST` naming `query.filter`. A filtered read is computed from the raw visits.';

const filterSchema = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .describe('`<dimension>:<value>` or `<dimension>!:<value>`, repeatable (see the description)');

export const COMPARE = ['previous', 'year'] as const;
const compareSchema = z
  .enum(COMPARE)
  .optional()
  .describe(
    '`previous`: the period of the same length just before; `year`: the same dates a year before. Adds `comparison` with its range, totals, series and the change of each figure',
  );

export const FORMATS = ['json', 'csv'] as const;
const formatSchema = z
  .enum(FORMATS)
  .default('json')
  .describe('`json` (default) or `csv`: the same rows as an RFC 4180 CSV download (text safe for spreadsheets)');

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
  'utm_terms',
  'utm_contents',
  'goals',
] as const;
export type BreakdownDimension = (typeof BREAKDOWN_DIMENSIONS)[number];

export const breakdownParamsSchema = z.strictObject({
  site_id: siteIdSchema,
  dimension: z
    .enum(BREAKDOWN_DIMENSIONS)
    .describe(
      'pages (page views by path, with engagement), entry_pages (sessions by landing path), exit_pages (sessions by last path), ' +
        'referrers (sessions by referring host; null = direct), utm_sources, utm_mediums, utm_campaigns, countries, devices, ' +
        'browsers, operating_systems, utm_terms, utm_contents (sessions by that value; null = none), outbound_links, downloads ' +
        "(clicks by link URL), goals (the site's goals: sessions that reached each, conversion rate, revenue)",
    ),
});

/** The overview's query: period, filters, comparison, format. */
export const overviewQuerySchema = rangeQuerySchema.extend({ filter: filterSchema, compare: compareSchema, format: formatSchema });

export const breakdownQuerySchema = rangeQuerySchema.extend({
  limit: z.coerce.number().int().min(1).max(100).default(10).describe('Rows, 1–100 (default 10), largest first'),
  filter: filterSchema,
  format: formatSchema,
});

/** The realtime read: filters only (the window is always the last minutes). */
export const realtimeQuerySchema = z.strictObject({ filter: filterSchema });

export const MAX_FUNNEL_STEPS = 10;
const stepsSchema = z
  .array(z.string().trim().min(1, 'A step needs an event name').max(200, 'An event name has at most 200 characters'))
  .min(2, 'A funnel has at least 2 steps')
  .max(MAX_FUNNEL_STEPS, `A funnel has at most ${MAX_FUNNEL_STEPS} steps`);

/** A funnel as the service takes it: the steps as a list. */
export const funnelInputSchema = rangeQuerySchema.extend({
  filter: filterSchema,
  steps: stepsSchema.describe('Event names (`event_name` of tracked events), in order'),
});

/** A funnel in a query string: the steps comma-separated. */
export const funnelQuerySchema = rangeQuerySchema.extend({
  filter: filterSchema,
  steps: z
    .string()
    .transform((v) => v.split(','))
    .pipe(stepsSchema)
    .describe(
      `Event names (\`event_name\` of tracked events), comma-separated, in order: 2–${MAX_FUNNEL_STEPS} steps, e.g. \`add_to_cart,checkout,purchase\``,
    ),
});

export type RangeQuery = z.input<typeof rangeQuerySchema>;
export type OverviewQuery = z.input<typeof overviewQuerySchema>;
export type RealtimeQuery = z.input<typeof realtimeQuerySchema>;
export type BreakdownQuery = z.input<typeof breakdownQuerySchema>;
export type FunnelInput = z.input<typeof funnelInputSchema>;

// ---- responses ----

export const AnalyticsRangeSchema = z.object({
  from: z.string().describe('First day, included (YYYY-MM-DD)'),
  to: z.string().describe('Last day, included'),
  timezone: z.string().describe("IANA time zone the days are counted in (`UTC` or the site's)"),
});

export const RevenueSchema = z
  .array(z.object({ currency: z.string().describe('ISO 4217 code, upper-case'), amount: z.number().describe('Sum of the amounts') }))
  .describe(
    'Revenue of the conversions that carry `properties.revenue {amount, currency}`, one entry per currency, largest first: amounts in different currencies are kept apart, never converted',
  );

const rate = (what: string) => z.number().min(0).max(1).nullable().describe(`${what}, 0–1; null without sessions`);

export const FiguresSchema = z.object({
  visitors: z.number().int().describe('Distinct visitors who started a session in the period'),
  sessions: z.number().int().describe('Sessions started in the period'),
  page_views: z.number().int().describe('Page views received in the period'),
  bounce_rate: rate('Share of the sessions that saw at most one page'),
  avg_duration_ms: z.number().int().nullable().describe('Mean session duration, first to last activity (ms); null without sessions'),
  conversions: z.number().int().describe('Conversion events received in the period'),
  new_leads: z.number().int().describe('Leads created in the period'),
  revenue: RevenueSchema,
});

const change = (what: string) => z.number().nullable().describe(what);
export const ChangeSchema = z
  .object({
    visitors: change('Relative change against the comparison period (0.25 = +25 %); null when it had none'),
    sessions: change('Relative change'),
    page_views: change('Relative change'),
    bounce_rate: change('Difference in points of the share (0.05 = 5 points more); null when either is null'),
    avg_duration_ms: change('Relative change; null when either is null'),
    conversions: change('Relative change'),
    new_leads: change('Relative change'),
  })
  .describe('The change of each figure of `totals` against `comparison.totals`');

/** People and bots counted apart: the one definition of a visit the console, the stats and the workflows share. */
export const VisitCountsSchema = z.object({
  visitors: z.number().int().describe('Distinct visitors with a session started in the period'),
  sessions: z.number().int().describe('Sessions started in the period'),
});

const SampledSchema = z
  .object({
    fraction: z.number().describe('The share of the visitors read: 1/2, 1/4, … 1/64'),
  })
  .optional()
  .describe(
    "Present when the figures are estimates: a filtered read of a period holding more sessions than ANALYTICS_SAMPLE_SESSIONS reads the sessions of a share of the visitors (chosen by their id, all of a visitor's sessions or none) and scales its counts by its inverse; rates and means are those of the share",
  );

export const OverviewSchema = z.object({
  site_id: uuidSchema,
  range: AnalyticsRangeSchema,
  totals: FiguresSchema.describe('The whole period (visitors are distinct over the whole period); people only, bot sessions left out'),
  bots: VisitCountsSchema.describe(
    'Bot sessions of the period (User-Agent of a known bot, crawler, headless browser or none) and their distinct visitors: left out of `totals` and `series`',
  ),
  series: z.array(FiguresSchema.extend({ date: z.string().describe('Day (YYYY-MM-DD)') })).describe('One entry per day of the period, oldest first'),
  filters: z.array(z.string()).describe('The filters applied, as given (`<dimension>:<value>`)'),
  sampled: SampledSchema,
  comparison: z
    .object({
      range: AnalyticsRangeSchema,
      totals: FiguresSchema,
      series: z.array(FiguresSchema.extend({ date: z.string() })).describe('One entry per day of the comparison period, oldest first'),
      change: ChangeSchema,
    })
    .optional()
    .describe('With `compare`: the same figures over the comparison period, with the same filters'),
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
  conversion_rate: rate('goals: share of the sessions of the period that reached the goal; null otherwise').optional(),
  revenue: RevenueSchema.optional().describe(
    'Session dimensions and goals: revenue of the conversions of these sessions (goals: of the goal), per currency',
  ),
});

export const BreakdownSchema = z.object({
  site_id: uuidSchema,
  range: AnalyticsRangeSchema,
  dimension: z.enum(BREAKDOWN_DIMENSIONS),
  items: z.array(BreakdownItemSchema).describe('Largest first: page views for pages, visitors then clicks for links, sessions otherwise'),
  filters: z.array(z.string()).describe('The filters applied, as given'),
  sampled: SampledSchema,
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
  filters: z.array(z.string()).describe('The filters applied, as given'),
});

const countOf = (what: string) =>
  z
    .array(z.object({ value: z.string().nullable().describe(`${what}; null = none`), visitors: z.number().int() }))
    .describe(`Active visitors by ${what}, most first (at most 10)`);

export const RealtimeSchema = z.object({
  site_id: uuidSchema,
  at: z.number().int().describe('When the figures were read (epoch ms)'),
  visitors: z.number().int().describe('Distinct visitors (people) with activity in the last 5 minutes'),
  pages: countOf('current page path'),
  sources: countOf('referring host'),
  countries: countOf('country code'),
  page_views_per_minute: z
    .array(z.object({ minute: z.number().int().describe('Start of the minute (epoch ms)'), page_views: z.number().int() }))
    .describe('Page views of each of the last 30 minutes, oldest first (the current minute last)'),
  filters: z.array(z.string()).describe('The filters applied, as given'),
});

export type Figures = z.infer<typeof FiguresSchema>;
export type Overview = z.infer<typeof OverviewSchema>;
export type BreakdownItem = z.infer<typeof BreakdownItemSchema>;
export type Breakdown = z.infer<typeof BreakdownSchema>;
export type Funnel = z.infer<typeof FunnelSchema>;
export type AnalyticsRange = z.infer<typeof AnalyticsRangeSchema>;
export type VisitCounts = z.infer<typeof VisitCountsSchema>;
export type Realtime = z.infer<typeof RealtimeSchema>;
export type Revenue = z.infer<typeof RevenueSchema>;
