import { z } from 'zod';
import { CAPABILITIES, type Capability } from '@/lib/core/principal';
import { isoTimestamp, paginationQuerySchema, siteIdSchema, uuidSchema } from '@/lib/core/schemas';
import { expirationDaysSchema } from '@/lib/keys/schema';
import { createLeadInputSchema, LEAD_STATUSES, LeadSchema } from '@/lib/leads/schema';
import { checkEventProperties, trackFieldsSchema } from '@/lib/visitors/schema';

export type { Capability };

/** What each capability allows; the console and the docs show this list. */
export const CAPABILITY_DESCRIPTIONS: Record<Capability, string> = {
  'leads.read': "GET /api/platform/leads: read the site's leads",
  'leads.write': 'POST /api/platform/leads: create leads (batch)',
  'tracking.event.write': 'POST /api/platform/tracking/event: record tracking events in visitor sessions',
  'email.send': 'POST /api/platform/email/send: send transactional email to any address',
  'email.send.test-only': "POST /api/platform/email/send: send only to the site owner's verified addresses",
  'db.migrate': "POST /api/platform/db/migrations: apply row-level-security SQL migrations to the app's own schema",
};

export const capabilitySchema = z.enum(CAPABILITIES).describe(`Capability: ${CAPABILITIES.join(', ')}`);

const nameSchema = (what: string) => z.string().trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters').describe(what);

// ——— Apps (session routes) ———

export const sitePathSchema = z.strictObject({ site_id: siteIdSchema });

export const createAppBodySchema = z.strictObject({ name: nameSchema('Name of the generated application') });

export const AppSchema = z.object({
  id: uuidSchema,
  name: z.string(),
  short_id: z.string().describe('Lower-case base32, 16 characters; fixed at creation'),
  schema: z.string().describe('Tenant schema of the app: app_<short_id>'),
  created_at: isoTimestamp,
});
export type App = z.infer<typeof AppSchema>;

// ——— Platform keys (session routes) ———

export const PLATFORM_KEY_STATUSES = ['active', 'expired', 'revoked'] as const;

export const createPlatformKeyBodySchema = z.strictObject({
  app_id: uuidSchema.describe('The app of this site the key is bound to'),
  name: nameSchema('Descriptive name'),
  capabilities: z
    .array(capabilitySchema)
    .min(1, 'At least one capability is required')
    .refine((c) => new Set(c).size === c.length, 'Capabilities must not repeat')
    .describe(`Non-empty subset of ${CAPABILITIES.join(', ')}`),
  expirationDays: expirationDaysSchema,
});
export type CreatePlatformKeyInput = z.infer<typeof createPlatformKeyBodySchema>;

export const listPlatformKeysQuerySchema = z.strictObject({ app_id: uuidSchema.optional().describe('Only the keys of this app') });

export const platformKeyPathSchema = z.strictObject({ site_id: siteIdSchema, key_id: uuidSchema.describe('Platform key id') });

export const PlatformKeySchema = z.object({
  id: uuidSchema,
  app_id: uuidSchema,
  name: z.string(),
  display: z.string().describe('Prefix and last four characters, e.g. sgp_pk_…a1B2'),
  status: z.enum(PLATFORM_KEY_STATUSES),
  capabilities: z.array(capabilitySchema),
  expires_at: isoTimestamp,
  created_at: isoTimestamp,
  revoked_at: isoTimestamp.nullable(),
});
export type PlatformKeySummary = z.infer<typeof PlatformKeySchema>;

export const CreatedPlatformKeySchema = PlatformKeySchema.extend({
  platformKey: z.string().describe('The full key. Shown only in this response; inject it into the app’s environment now.'),
});
export type CreatedPlatformKey = z.infer<typeof CreatedPlatformKeySchema>;

export const MessageSchema = z.object({ message: z.string() });

// ——— Audit and quotas (session routes) ———

export const auditQuerySchema = paginationQuerySchema.extend({
  app_id: uuidSchema.optional().describe('Only the calls of this app'),
});

export const AuditEntrySchema = z.object({
  id: z.number().int(),
  app_id: uuidSchema,
  key_id: uuidSchema,
  request_id: z.string(),
  method: z.string(),
  route: z.string(),
  capability: z.string().nullable().describe('The capability the route needs (the one the key used, when it has several)'),
  status: z.number().int().describe('HTTP status answered'),
  error_code: z.string().nullable().describe('Error code of a refused or failed call'),
  created_at: isoTimestamp,
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

// ——— Platform API (platform key routes) ———

export const PlatformMeSchema = z.object({
  key: z.object({
    id: uuidSchema,
    name: z.string(),
    display: z.string(),
    expires_at: isoTimestamp,
    capabilities: z.array(capabilitySchema).describe('Capability scopes of the key'),
  }),
  site: z.object({ id: uuidSchema, name: z.string(), domain: z.string().nullable() }),
  app: z.object({ id: uuidSchema, name: z.string(), short_id: z.string() }),
  schema: z.object({
    name: z.string().describe('Tenant schema of the app, app_<short_id>'),
    exists: z.boolean().describe('Whether the schema has been created (by the first applied migration)'),
    applied: z.number().int().describe('Migrations applied to it (POST /api/platform/db/migrations)'),
  }),
  quotas: z
    .array(
      z.object({
        capability: capabilitySchema,
        limit: z.number().int().describe('Units per UTC day'),
        used: z.number().int().describe('Units used today'),
        resets_at: isoTimestamp.describe('Next UTC midnight'),
      }),
    )
    .describe("Today's quota of each capability of the key"),
});
export type PlatformMe = z.infer<typeof PlatformMeSchema>;

export const platformLeadsQuerySchema = z.strictObject({
  site_id: siteIdSchema.optional(),
  search: z.string().trim().max(200).optional().describe('Case-insensitive substring matched against name, email and company'),
  status: z.enum(LEAD_STATUSES).optional().describe('Only leads with this status'),
  limit: z.coerce.number().int().min(1).max(100).default(50).describe('Page size, 1–100 (default 50)'),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0).describe('Items to skip (default 0)'),
});

export const PLATFORM_LEAD_BATCH_MAX = 100;

const leadItemSchema = createLeadInputSchema.omit({ site_id: true });

export const createPlatformLeadsBodySchema = z.strictObject({
  site_id: siteIdSchema.optional(),
  leads: z
    .array(leadItemSchema)
    .min(1, 'At least one lead is required')
    .max(PLATFORM_LEAD_BATCH_MAX, `At most ${PLATFORM_LEAD_BATCH_MAX} leads per request`)
    .describe(`1–${PLATFORM_LEAD_BATCH_MAX} leads, each with the fields of POST /api/agents/tools/leads/create (name and email required)`),
});
export type PlatformLeadItem = z.infer<typeof leadItemSchema>;

export const LeadBatchResultSchema = z.object({
  created: z.number().int().describe('Leads created'),
  failed: z.number().int().describe('Items refused (see their error)'),
  results: z
    .array(
      z.object({
        index: z.number().int().describe('Position of the item in `leads`'),
        success: z.boolean(),
        lead: LeadSchema.optional().describe('The created lead (success)'),
        error: z
          .object({ code: z.string(), message: z.string() })
          .optional()
          .describe('Why this item was refused (e.g. CONFLICT: email already a lead)'),
      }),
    )
    .describe('One result per item, in order'),
});
export type LeadBatchResult = z.infer<typeof LeadBatchResultSchema>;

export const platformTrackBodySchema = trackFieldsSchema.extend({ site_id: siteIdSchema.optional() }).superRefine(checkEventProperties);

export const appMigrationBodySchema = z.strictObject({
  site_id: siteIdSchema.optional(),
  name: z.string().min(1).max(128).describe("The migration's name, unique per app: 1–128 letters, digits, _ . - (e.g. 0001_create_orders)"),
  sql: z.string().min(1).describe('The SQL (at most 256 KB, 200 statements), linted and applied in one transaction'),
});
export type AppMigrationBody = z.infer<typeof appMigrationBodySchema>;

export const AppMigrationResultSchema = z.object({
  status: z.enum(['applied', 'already_applied']).describe('`already_applied`: the same name with the same SQL was applied before'),
  name: z.string(),
  checksum: z.string().describe('SHA-256 of the SQL, hex'),
  statements: z.number().int().describe('Statements applied'),
});
