import { z } from 'zod';
import { createBodySchema, defineResource, field, updateBodySchema } from '@/lib/core/resource';
import { CappedPaginationMetaSchema, listBodyPagination, siteIdSchema, uuidSchema } from '@/lib/core/schemas';
import { customPropertiesInputSchema, customPropertiesOutputSchema } from './custom-properties-schema';

/**
 * Leads of a site. Types the spec leaves open are fixed here: `lead_score` an integer 0–100,
 * `segment_id` one of the site's segments, `campaign_id`/`assignee_id` UUIDs, the free-text
 * fields bounded strings. Emails are stored lower-case; one lead per email per site.
 */
export const LEAD_STATUSES = ['new', 'contacted', 'qualified', 'converted', 'lost'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

/** Columns `leads/get` may sort by. */
export const LEAD_SORT_FIELDS = ['created_at', 'updated_at', 'name', 'email', 'company', 'status', 'lead_score'] as const;
export type LeadSortField = (typeof LEAD_SORT_FIELDS)[number];

const text = (max: number, what: string) => z.string().trim().max(max).describe(what);
const statusSchema = z.enum(LEAD_STATUSES).describe('Lead status: new, contacted, qualified, converted or lost');
const emailSchema = z
  .string()
  .trim()
  .max(320)
  .pipe(z.email('Must be a valid email address'))
  .transform((e) => e.toLowerCase())
  .describe('Email address (stored lower-case; one lead per email per site)');

const clearable = <I extends z.ZodType, O extends z.ZodType>(column: string, input: I, out: O) =>
  field(column, { in: input, out, create: 'optional', update: 'clearable' });

/** Every field of a lead, once: column, input and output (lib/core/resource.ts). */
export const leadResource = defineResource({
  name: 'Lead',
  id: 'id',
  fields: {
    name: field('name', { in: z.string().trim().min(1).max(200).describe('Full name'), out: z.string(), create: 'required', update: 'optional' }),
    email: field('email', { in: emailSchema, out: z.string().describe('Lower-case email'), create: 'required', update: 'optional' }),
    status: field('status', { in: statusSchema, out: z.enum(LEAD_STATUSES), create: { default: 'new' }, update: 'optional' }),
    phone: clearable('phone', text(50, 'Phone number, free format'), z.string().nullable()),
    position: clearable('position', text(200, 'Job title or position'), z.string().nullable()),
    company: clearable('company', text(200, 'Company name'), z.string().nullable()),
    notes: clearable('notes', text(10_000, 'Free-text notes'), z.string().nullable()),
    origin: clearable('origin', text(200, 'Where the lead came from (e.g. website, referral, import)'), z.string().nullable()),
    segment_id: clearable('segmentId', uuidSchema.describe("One of the site's segments"), uuidSchema.nullable()),
    campaign_id: clearable('campaignId', uuidSchema.describe('Campaign the lead belongs to'), uuidSchema.nullable()),
    assignee_id: clearable(
      'assigneeId',
      uuidSchema.describe('Member of the site the lead is assigned to (400 for anyone else)'),
      uuidSchema.nullable(),
    ),
    lead_score: clearable(
      'leadScore',
      z.number().int().min(0).max(100).describe('Lead score, an integer from 0 to 100'),
      z.number().int().nullable(),
    ),
    custom_properties: field('customProperties', {
      in: customPropertiesInputSchema,
      out: customPropertiesOutputSchema,
      create: 'optional',
      update: 'optional',
    }),
  },
});

export type LeadField = keyof typeof leadResource.fields;
/** A lead's own fields, in the order of their declaration. */
export const LEAD_FIELDS = Object.keys(leadResource.fields) as [LeadField, ...LeadField[]];

export const createLeadInputSchema = createBodySchema(leadResource);

export const updateLeadInputSchema = updateBodySchema(leadResource, 'lead_id');

export const qualifyLeadInputSchema = z.strictObject({
  site_id: siteIdSchema,
  lead_id: uuidSchema.describe('The lead to qualify'),
  status: statusSchema,
});

export const identifyLeadInputSchema = z
  .strictObject({
    site_id: siteIdSchema,
    visitor_id: uuidSchema.describe('The visitor of this site (from the visitor session)'),
    lead_id: uuidSchema.optional().describe('Link the visitor to this lead of the site'),
    email: emailSchema.optional().describe("Link the visitor to the site's lead with this email"),
  })
  .refine((b) => !(b.lead_id && b.email), 'Give lead_id or email, not both')
  .describe('With lead_id or email the visitor is linked to that lead (replacing an earlier link); without, the linked lead is returned');

/** Filters on custom properties: every given key must hold the value (in the console and the export's query: `property.<key>=value`). */
export const propertyFiltersSchema = z
  .record(z.string().max(40), z.union([z.string().max(1_000), z.number()]))
  .refine((r) => Object.keys(r).length <= 20, 'At most 20 property filters')
  .describe(
    'Only leads whose custom properties hold these values, by key (every one must match): a choice matches its option case-insensitively, a number its value; an unknown key or a value of the wrong type is 400',
  );

/** A search of the leads list and export: a substring of name, email or company. */
export const leadSearchSchema = z
  .string()
  .trim()
  .max(200)
  .regex(/^[^\u0000-\u001f]*$/, 'search must not contain control characters');

export const listLeadsInputSchema = z.strictObject({
  site_id: siteIdSchema,
  search: leadSearchSchema.optional().describe('Case-insensitive substring matched against name, email and company'),
  status: statusSchema.optional().describe('Only leads with this status'),
  segment_id: uuidSchema.optional().describe('Only leads in this segment of the site'),
  properties: propertyFiltersSchema.optional(),
  ...listBodyPagination,
  sort_by: z
    .enum(LEAD_SORT_FIELDS)
    .default('created_at')
    .describe(`Sort key: ${LEAD_SORT_FIELDS.join(', ')} (default created_at)`),
  sort_order: z.enum(['asc', 'desc']).default('desc').describe('asc or desc (default desc)'),
});

export const LeadSchema = leadResource.schema;

export const LeadResultSchema = z.object({ lead: LeadSchema });
export const IdentifiedLeadResultSchema = z.object({ lead: LeadSchema, visitor_id: uuidSchema });
export const LeadListSchema = z.object({ leads: z.array(LeadSchema), ...CappedPaginationMetaSchema.shape });

export type Lead = z.infer<typeof LeadSchema>;
export type CreateLeadInput = z.infer<typeof createLeadInputSchema>;
export type UpdateLeadInput = z.infer<typeof updateLeadInputSchema>;
export type ListLeadsInput = z.infer<typeof listLeadsInputSchema>;
export type IdentifyLeadInput = z.infer<typeof identifyLeadInputSchema>;
