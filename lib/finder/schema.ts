import { z } from 'zod';
import { siteIdSchema, uuidSchema } from '@/lib/core/schemas';
import { AutocompleteItemSchema, CONTACT_LOOKUPS, ContactSchema, FinderOrganizationSchema, FinderPersonSchema } from '@/lib/providers/people-data';
import { VenueSchema } from '@/lib/providers/venues';

/**
 * Bodies and answers of the finder routes and tools. Search parameters are the provider's own
 * and are passed through, after a check of their shape and size: names in snake_case, values
 * JSON (strings ≤ 1,000 characters, arrays ≤ 200 items, nesting ≤ 5 levels, ≤ 50 parameters),
 * the whole ≤ 16 KiB.
 */
export const SEARCH_LIMITS = { bytes: 16 * 1024, depth: 5, keys: 50, items: 200, string: 1000 } as const;
const PARAM_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const RESERVED = new Set(['site_id', 'page']);

function checkShape(value: unknown, ctx: z.RefinementCtx, path: (string | number)[], depth: number): void {
  const issue = (message: string) => ctx.addIssue({ code: 'custom', message, path });
  if (depth > SEARCH_LIMITS.depth) return issue(`nested deeper than ${SEARCH_LIMITS.depth} levels`);
  if (value === null || typeof value === 'boolean') return;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : issue('not a finite number');
  if (typeof value === 'string') return value.length > SEARCH_LIMITS.string ? issue(`longer than ${SEARCH_LIMITS.string} characters`) : undefined;
  if (Array.isArray(value)) {
    if (value.length > SEARCH_LIMITS.items) return issue(`more than ${SEARCH_LIMITS.items} items`);
    value.forEach((v, i) => checkShape(v, ctx, [...path, i], depth + 1));
    return;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length > SEARCH_LIMITS.keys) return issue(`more than ${SEARCH_LIMITS.keys} keys`);
    for (const [k, v] of entries) {
      if (!PARAM_NAME.test(k)) issue(`parameter name "${k.slice(0, 70)}" is not snake_case (a-z, 0-9, _; at most 64)`);
      else checkShape(v, ctx, [...path, k], depth + 1);
    }
    return;
  }
  issue('not a JSON value');
}

function checkParams(params: Record<string, unknown>, ctx: z.RefinementCtx, base: (string | number)[] = []): void {
  const own = Object.fromEntries(Object.entries(params).filter(([k]) => !(base.length === 0 && RESERVED.has(k))));
  if (JSON.stringify(own).length > SEARCH_LIMITS.bytes) {
    ctx.addIssue({ code: 'custom', message: `search parameters larger than ${SEARCH_LIMITS.bytes} bytes`, path: base });
    return;
  }
  checkShape(own, ctx, base, 1);
}

/** A search of the provider: its parameters (e.g. `role_title`, `person_locations`, `organization_industries`). */
export const searchQuerySchema = z
  .record(z.string(), z.unknown())
  .superRefine((v, ctx) => checkParams(v, ctx))
  .refine((v) => Object.keys(v).length > 0, 'at least one search parameter')
  .describe("The provider's search parameters (Forager-style: role_title, person_locations, organization_industries, …), passed through");
export type SearchQuery = z.infer<typeof searchQuerySchema>;

const page = z.number().int().min(1).max(500).default(1).describe('Result page, 1-based (default 1; at most 500)');

/** Body of person_role_search and icp: `site_id`, `page`, and the provider's parameters beside them. */
export const searchBodySchema = z
  .object({ site_id: siteIdSchema, page })
  .catchall(z.unknown())
  .superRefine((v, ctx) => checkParams(v, ctx))
  .describe("`site_id`, optional `page`, and the provider's search parameters at the top level, passed through");
export const totalsBodySchema = z
  .object({ site_id: siteIdSchema })
  .catchall(z.unknown())
  .superRefine((v, ctx) => checkParams(v, ctx))
  .describe("`site_id` and the provider's search parameters at the top level, passed through");

/** The provider's parameters of a search body (everything but `site_id` and `page`). */
export const paramsOf = (body: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(body).filter(([k]) => !RESERVED.has(k)));

export const CreditsChargedSchema = z
  .object({
    charged: z.number().int().describe('Credits this call cost (0 for free calls)'),
    balance: z.number().int().nullable().describe('Balance after the call (null for free calls)'),
  })
  .describe('What the call cost');

export const PersonSearchResponseSchema = z.object({
  people: z.array(FinderPersonSchema),
  page: z.number().int(),
  total: z.number().int().nullable().describe('People matching, when the provider says'),
  credits: CreditsChargedSchema,
});

export const TotalsResponseSchema = z.object({ total: z.number().int().describe('People matching the search'), credits: CreditsChargedSchema });

export const IcpSearchResponseSchema = z.object({
  organizations: z.array(FinderOrganizationSchema),
  page: z.number().int(),
  total: z.number().int().nullable(),
  credits: CreditsChargedSchema,
});

export const autocompleteParams = z.object({
  category: z
    .string()
    .regex(/^[a-z][a-z0-9_]{1,40}$/, 'a provider filter name in snake_case')
    .describe('The search filter to complete, e.g. industry, location, job_title, skill, organization'),
});
export const autocompleteQuery = z.object({
  site_id: siteIdSchema,
  q: z.string().trim().min(1).max(200).describe('Text to complete'),
  page: z.coerce.number().int().min(1).max(100).default(1).describe('Result page (default 1)'),
});
export const AutocompleteResponseSchema = z.object({
  category: z.string(),
  results: z.array(AutocompleteItemSchema),
  page: z.number().int(),
  has_more: z.boolean(),
});

export const contactsLookupBodySchema = z.strictObject({
  site_id: siteIdSchema,
  person_id: z.string().trim().min(1).max(100).describe('Provider id of the person (`person_id` of a search result)'),
  type: z.enum(CONTACT_LOOKUPS).describe('work_emails, personal_emails, phone_numbers, or details (the person’s profile)'),
});
export const ContactsLookupResponseSchema = z.object({
  person_id: z.string(),
  type: z.enum(CONTACT_LOOKUPS),
  contacts: z.array(ContactSchema).describe('Emails or phone numbers found (empty for `details`)'),
  details: FinderPersonSchema.nullable().describe('The person, for `details` (null otherwise or when unknown)'),
  credits: CreditsChargedSchema,
});

export const createQueryBodySchema = z.strictObject({
  site_id: siteIdSchema,
  segment_id: uuidSchema.optional().describe("A segment of the site the mined leads go to (another site's → 404)"),
  name: z.string().trim().min(1).max(200).describe('Name of the role query'),
  total_targets: z.number().int().min(1).max(10_000).describe('How many new leads mining should create for this query (1–10,000)'),
  query: searchQuerySchema,
});
export type CreateQueryBody = z.infer<typeof createQueryBodySchema>;

export const RoleQuerySchema = z.object({
  id: uuidSchema,
  site_id: uuidSchema,
  name: z.string(),
  query: z.record(z.string(), z.unknown()),
  query_hash: z.string().describe('sha256 of the normalised query; the same search is one role query per site'),
  total_targets: z.number().int(),
  leads_created: z.number().int().describe('Leads mining created so far'),
  pages_fetched: z.number().int(),
  next_page: z.number().int().describe('The provider page mining continues from'),
  status: z.enum(['pending', 'mining', 'completed', 'exhausted', 'out_of_credits']),
  segment_ids: z.array(uuidSchema).describe('Linked segments, most recent first (mined leads go to the first)'),
  last_workflow_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const CreateQueryResponseSchema = z.object({
  role_query: RoleQuerySchema,
  created: z.boolean().describe('False when an existing role query of the site had the same normalised query'),
  run_ids: z.array(z.string()).describe('workflowId of each idealClientProfileMining run started (see GET /api/logs/workflows/{workflowId})'),
  runs: z.array(z.object({ workflowId: z.string(), runId: z.string() })),
});

export const creditsQuery = z.object({
  site_id: siteIdSchema,
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Ledger entries to show, newest first (1–100, default 20)'),
});
export const LedgerEntrySchema = z.object({
  id: uuidSchema,
  kind: z.enum(['grant', 'charge', 'refund']),
  call_type: z.string().nullable(),
  amount: z.number().int().describe('Signed: + for grants and refunds, − for charges'),
  balance_after: z.number().int(),
  refund_of: z.string().nullable().describe('The charge a refund gives back'),
  workflow_id: z.string().nullable().describe('The workflow run that spent it, if any'),
  note: z.string().nullable(),
  created_at: z.string(),
});
export const CreditsResponseSchema = z.object({
  balance: z.number().int(),
  monthly_cap: z.number().int().nullable().describe('Cap on credits spent per calendar month (UTC) in force; null: none'),
  month: z.string().describe('The current month, YYYY-MM (UTC)'),
  spent_this_month: z.number().int(),
  remaining_this_month: z.number().int().describe('Credits that can still be spent this month (balance and cap)'),
  prices: z.record(z.string(), z.number().int()).describe('Credits per call type'),
  ledger: z.array(LedgerEntrySchema),
});

export const venueSearchInput = z.strictObject({
  site_id: siteIdSchema,
  region: z.string().trim().min(2).max(200).describe('City, region or address to search in (e.g. "Madrid, Spain")'),
  query: z.string().trim().min(2).max(200).describe('What kind of venue (e.g. "coworking", "dental clinic")'),
  limit: z.number().int().min(1).max(50).default(20).describe('Most venues to return (1–50, default 20)'),
});
export const VenueSearchResponseSchema = z.object({
  region: z.string(),
  query: z.string(),
  venues: z.array(VenueSchema),
  credits: CreditsChargedSchema,
});
