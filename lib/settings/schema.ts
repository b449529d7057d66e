import { z } from 'zod';

/**
 * Site business settings (spec §2.11), stored in `sites.settings`. Every object is strict: an
 * unknown field anywhere is refused. Every field is optional, so a site starts with `{}`.
 *
 * Merge rules of `updateSettings` (see ./merge.ts): only the fields given change; objects merge
 * key by key, recursively; arrays, strings, numbers and booleans replace the stored value whole;
 * `null` removes a field (at any depth). The merged result must satisfy SiteSettingsSchema.
 */
const str = (max: number, what: string) => z.string().trim().max(max).describe(what);
const list = (what: string, maxItems = 100, maxLen = 500) => z.array(z.string().trim().min(1).max(maxLen)).max(maxItems).describe(what);
const url = (what: string) =>
  z
    .url({ protocol: /^https?$/ })
    .max(2_000)
    .describe(what);
const hexColor = (what: string) =>
  z
    .string()
    .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'Must be a hex color such as #1a2b3c')
    .describe(what);
const currency = z
  .string()
  .regex(/^[A-Z]{3}$/, 'Must be an ISO 4217 code such as USD')
  .describe('ISO 4217 currency code (USD, EUR)');
/** A list of up to `max` objects of `shape` (each strict). */
const rowsOf = <S extends z.ZodRawShape>(max: number, what: string, shape: S) => z.array(z.strictObject(shape)).max(max).describe(what);
const isoDate = z.iso.date().describe('Date, YYYY-MM-DD');
/** A time of day; the console edits it with a time input. */
export const timeOfDaySchema = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Must be HH:MM (24-hour)')
  .describe('Time of day, HH:MM (24-hour)');

export const BRAND_ARCHETYPES = [
  'innocent',
  'everyman',
  'hero',
  'outlaw',
  'explorer',
  'creator',
  'ruler',
  'magician',
  'lover',
  'caregiver',
  'jester',
  'sage',
] as const;

export const BrandingSchema = z
  .strictObject({
    brand_pyramid: z
      .strictObject({
        brand_essence: str(500, 'The core idea of the brand in a phrase'),
        brand_personality: str(1_000, 'The brand described as a person'),
        core_values: list('Values the brand stands for'),
        emotional_benefits: list('How customers feel using the brand'),
        functional_benefits: list('What the product or service does for customers'),
        attributes: list('Tangible features of the offering'),
      })
      .partial()
      .describe('Brand pyramid, from attributes up to the essence'),
    brand_archetype: z.enum(BRAND_ARCHETYPES).describe(`One of the twelve archetypes: ${BRAND_ARCHETYPES.join(', ')}`),
    color_palette: z
      .strictObject({
        primary: hexColor('Primary color'),
        secondary: hexColor('Secondary color'),
        accent: hexColor('Accent color'),
        background: hexColor('Background color'),
        text: hexColor('Text color'),
        additional: z.array(hexColor('Color')).max(20).describe('Further colors'),
      })
      .partial()
      .describe('Brand colors as hex codes'),
    typography: z
      .strictObject({
        heading_font: str(200, 'Font family of headings'),
        body_font: str(200, 'Font family of body text'),
        monospace_font: str(200, 'Font family of code'),
      })
      .partial()
      .describe('Brand fonts'),
    voice_and_tone: z
      .strictObject({
        communication_style: str(2_000, 'How the brand speaks (e.g. friendly and direct)'),
        personality_traits: list('Traits of the brand voice'),
        forbidden_words: list('Words never to use'),
        preferred_phrases: list('Phrases to prefer'),
      })
      .partial()
      .describe('Voice and tone of brand copy'),
    brand_guidelines: z
      .strictObject({ do_list: list('Things to do'), dont_list: list('Things not to do') })
      .partial()
      .describe('Do and don’t lists'),
    brand_assets: z
      .strictObject({
        logo_url: url('Logo image URL'),
        logo_dark_url: url('Logo for dark backgrounds'),
        favicon_url: url('Favicon URL'),
        other: z
          .array(z.strictObject({ name: str(200, 'Asset name').min(1), url: url('Asset URL') }))
          .max(100)
          .describe('Other assets'),
      })
      .partial()
      .describe('Logos and other brand files'),
  })
  .partial()
  .describe('Brand identity');

const journeyStage = (stage: string) =>
  z
    .strictObject({
      metrics: list(`What is measured at ${stage}`),
      actions: list(`What customers do at ${stage}`),
      tactics: list(`What the business does at ${stage}`),
    })
    .partial()
    .describe(`The ${stage} stage`);

export const JOURNEY_STAGES = ['awareness', 'consideration', 'decision', 'purchase', 'retention', 'referral'] as const;

export const CustomerJourneySchema = z
  .strictObject(
    Object.fromEntries(JOURNEY_STAGES.map((s) => [s, journeyStage(s)])) as Record<(typeof JOURNEY_STAGES)[number], ReturnType<typeof journeyStage>>,
  )
  .partial()
  .describe('Customer journey stages, each with metrics, actions and tactics');

export const SwotSchema = z
  .strictObject({
    strengths: list('Strengths'),
    weaknesses: list('Weaknesses'),
    opportunities: list('Opportunities'),
    threats: list('Threats'),
  })
  .partial()
  .describe('SWOT analysis');

const offering = (what: string) =>
  z.strictObject({
    name: str(200, `${what} name`).min(1),
    description: str(5_000, 'Description').optional(),
    category: str(200, 'Category').optional(),
    price: z.number().min(0).optional().describe('Price, a number ≥ 0'),
    currency: currency.optional(),
    url: url('Page URL').optional(),
  });

const place = z.strictObject({
  name: str(200, 'Name of the place').optional(),
  address: str(500, 'Street address').optional(),
  city: str(200, 'City').optional(),
  region: str(200, 'State, province or region').optional(),
  country: str(200, 'Country').optional(),
  postal_code: str(20, 'Postal code').optional(),
});

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
const CHANNELS = ['email', 'whatsapp', 'phone', 'sms', 'website_chat', 'social'] as const;

export const SiteSettingsSchema = z
  .strictObject({
    about: str(20_000, 'What the company does; the main context for agents'),
    company_size: str(100, 'Company size (e.g. 1-10, 11-50, Enterprise)'),
    industry: str(200, 'Primary industry'),
    branding: BrandingSchema,
    customer_journey: CustomerJourneySchema,
    swot: SwotSchema,
    products: z.array(offering('Product')).max(500).describe('Products offered'),
    services: z.array(offering('Service')).max(500).describe('Services offered'),
    locations: z.array(place).max(500).describe('Places where the company operates or sells'),
    marketing_channels: rowsOf(100, 'Marketing channels in use', {
      name: str(200, 'Channel name (e.g. Google Ads)').min(1),
      type: str(100, 'Kind of channel (e.g. paid, organic, email)').optional(),
      budget: z.number().min(0).optional().describe('Budget for the channel, a number ≥ 0'),
      active: z.boolean().optional().describe('Whether the channel is in use'),
    }),
    social_media: rowsOf(50, 'Social media profiles', {
      platform: str(100, 'Platform (e.g. linkedin, instagram)').min(1),
      url: url('Profile URL').optional(),
      handle: str(200, 'Handle or username').optional(),
    }),
    team_members: rowsOf(
      500,
      "People on the company's team, as context for the agents; not who may sign in to the console (that is the site's members)",
      {
        name: str(200, 'Full name').min(1),
        role: str(200, 'Role or title').optional(),
        email: z.email().optional().describe('Work email'),
        bio: str(2_000, 'Short bio').optional(),
      },
    ),
    team_roles: rowsOf(200, 'Roles in the team', {
      title: str(200, 'Role title').min(1),
      description: str(2_000, 'Responsibilities').optional(),
      count: z.number().int().min(0).optional().describe('People in this role'),
    }),
    competitors: rowsOf(200, 'Competitors', {
      name: str(200, 'Competitor name').min(1),
      url: url('Website').optional(),
      description: str(2_000, 'Who they are').optional(),
      strengths: list('Their strengths').optional(),
      weaknesses: list('Their weaknesses').optional(),
    }),
    press_releases: rowsOf(500, 'Press releases', {
      title: str(500, 'Headline').min(1),
      date: isoDate.optional(),
      url: url('Where it was published').optional(),
      summary: str(5_000, 'Summary').optional(),
    }),
    partnerships: rowsOf(200, 'Partnerships', {
      name: str(200, 'Partner name').min(1),
      type: str(100, 'Kind of partnership (e.g. reseller, technology)').optional(),
      description: str(2_000, 'What the partnership is').optional(),
      url: url('Partner website').optional(),
    }),
    office_locations: z
      .array(place.extend({ is_headquarters: z.boolean().optional().describe('The head office') }))
      .max(200)
      .describe('Offices'),
    marketing_budget: z
      .strictObject({
        total: z.number().min(0).describe('Total budget, a number ≥ 0'),
        currency,
        period: z.enum(['monthly', 'quarterly', 'yearly']).describe('Period the total covers'),
        allocation: z.record(z.string().min(1).max(100), z.number().min(0)).describe('Amount per channel or purpose'),
      })
      .partial()
      .describe('Marketing budget'),
    org_structure: z
      .strictObject({
        description: str(5_000, 'How the company is organised'),
        departments: rowsOf(100, 'Departments', {
          name: str(200, 'Department').min(1),
          head: str(200, 'Who leads it').optional(),
          size: z.number().int().min(0).optional().describe('People in it'),
        }),
      })
      .partial()
      .describe('Organisation structure'),
    goals: z
      .strictObject({
        primary: str(1_000, 'The main business goal'),
        short_term: list('Goals for the coming months'),
        long_term: list('Goals for the coming years'),
        kpis: rowsOf(100, 'Key performance indicators', {
          name: str(200, 'Indicator').min(1),
          target: z.number().optional().describe('Target value'),
          unit: str(50, 'Unit (e.g. %, leads/month)').optional(),
        }),
      })
      .partial()
      .describe('Business goals'),
    channels: z
      .partialRecord(
        z.enum(CHANNELS),
        z.strictObject({
          enabled: z.boolean().describe('Whether agents may use the channel'),
          address: str(500, 'Address, number or URL on the channel').optional(),
        }),
      )
      .describe(`Contact channels (${CHANNELS.join(', ')}), each {enabled, address?}`),
    business_hours: z
      .strictObject({
        timezone: str(
          100,
          "The site's IANA time zone (e.g. Europe/Madrid): the console shows dates and counts analytics days in it, as analytics' `timezone=site`",
        ),
        days: z
          .partialRecord(
            z.enum(DAYS),
            z.strictObject({
              closed: z.boolean().optional().describe('Closed all day'),
              open: timeOfDaySchema.optional(),
              close: timeOfDaySchema.optional(),
            }),
          )
          .describe('Opening hours per weekday'),
      })
      .partial()
      .describe('Business hours'),
    competitor_info: z
      .strictObject({
        market_position: str(2_000, 'Where the company stands in its market'),
        differentiators: list('What sets the company apart'),
        notes: str(10_000, 'Further notes'),
      })
      .partial()
      .describe('Competitive landscape'),
    tracking: z
      .strictObject({
        respect_gpc: z
          .boolean()
          .describe(
            'Honour Global Privacy Control and Do Not Track (default on): such a visit is counted without a stored visitor id, ' + 'city or region',
          ),
        cookieless: z
          .boolean()
          .describe(
            'Cookieless mode (default off): the tag stores nothing in visitors’ browsers; a visitor is a daily id computed on the ' +
              'server from the site, the IP address and the User-Agent, so a visit still spans its pages but returning visitors are ' +
              'not recognised after the day',
          ),
        data_retention_days: z
          .number()
          .int()
          .min(30)
          .max(3650)
          .describe('Days visitor sessions and their events are kept (default 730, at least 30): older ones are deleted by the hourly retention job'),
      })
      .partial()
      .describe('How the tracking tag treats visitors’ privacy'),
    diversity_info: z
      .strictObject({
        statement: str(5_000, 'Diversity statement'),
        initiatives: list('Initiatives'),
        policies: list('Policies'),
      })
      .partial()
      .describe('Diversity and inclusion'),
  })
  .partial()
  .refine((s) => JSON.stringify(s).length <= 512 * 1024, 'settings must be at most 512 KB serialized');

export type SiteSettings = z.infer<typeof SiteSettingsSchema>;
export const SETTINGS_FIELDS = Object.keys(SiteSettingsSchema.shape) as (keyof SiteSettings)[];

/**
 * An update: the same fields, every one optional; at any depth of an object field `null`
 * removes the key. Objects inside arrays are whole values (arrays replace), so they keep their
 * required fields. Built from SiteSettingsSchema so the two cannot drift.
 */
export const SettingsPatchSchema = patchOf(SiteSettingsSchema) as z.ZodObject<{
  [K in keyof SiteSettings]-?: z.ZodOptional<z.ZodNullable<z.ZodType<unknown>>>;
}>;

function patchOf(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
  if (inner instanceof z.ZodObject) {
    const shape = Object.fromEntries(
      Object.entries(inner.shape as Record<string, z.ZodType>).map(([key, field]) => [
        key,
        patchOf(field)
          .nullable()
          .optional()
          .describe(descriptionOf(field) ?? key),
      ]),
    );
    return z.strictObject(shape).describe(inner.description ?? '');
  }
  if (inner instanceof z.ZodRecord) {
    return z.partialRecord(inner.keyType as z.ZodEnum, patchOf(inner.valueType as z.ZodType).nullable()).describe(inner.description ?? '');
  }
  return inner;
}

/** A field's description, also when it was given before `.optional()` / `.nullable()`. */
function descriptionOf(schema: z.ZodType): string | undefined {
  if (schema.description) return schema.description;
  return schema instanceof z.ZodOptional || schema instanceof z.ZodNullable ? descriptionOf(schema.unwrap() as z.ZodType) : undefined;
}

export type SettingsPatch = { [K in keyof SiteSettings]?: unknown };
