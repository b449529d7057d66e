import { z } from 'zod';
import { SITE_ROLES } from '@/lib/core/principal';
import { isoTimestamp, uuidSchema } from '@/lib/core/schemas';

// A host name with an optional port, e.g. `example.com`, `shop.example.co.uk`, `localhost:3000`.
const HOST = /^(?=.{1,253}(?::\d{1,5})?$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::\d{1,5})?$/;

/**
 * The host of what an owner pastes: `https://Shop.Example/path?q` keeps `shop.example`, a
 * `shop.example/` its host; a default port goes, any other stays. What is not a URL is left for
 * the host rule to refuse.
 */
function hostOf(input: string): string {
  const text = input.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    try {
      return new URL(text).host.replace(/\.$/, '').toLowerCase();
    } catch {
      return text.toLowerCase();
    }
  }
  return text.replace(/^\/\//, '').split(/[/?#]/)[0]!.replace(/\.$/, '').toLowerCase();
}

export const domainSchema = z
  .string()
  .overwrite(hostOf)
  .regex(HOST, "Enter the site's address as a host name such as example.com")
  .describe('Host name of the site, e.g. example.com; a pasted URL (https://example.com/shop) keeps its host, lower-cased');

const siteNameSchema = z.string().trim().min(1, 'Name is required').max(200, 'Name must be at most 200 characters').describe('Site name');

export const createSiteBodySchema = z.strictObject({
  name: siteNameSchema,
  domain: domainSchema.optional(),
});

/** Changes a site's name and/or domain; `domain: null` removes the domain. At least one field. */
export const updateSiteBodySchema = z
  .strictObject({
    name: siteNameSchema.optional(),
    domain: domainSchema.nullable().optional().describe('Host name of the site, e.g. example.com; null removes it'),
  })
  .refine((body) => body.name !== undefined || body.domain !== undefined, { message: 'Send name, domain or both' });

/** The typed confirmation a site deletion needs: the site's current name, exactly as stored. */
export const deleteSiteBodySchema = z.strictObject({
  confirm: z.string().max(200).describe('The site\'s current name, typed out (e.g. "My shop"): guards against deleting the wrong site'),
});

export const sitePathSchema = z.strictObject({ site_id: uuidSchema.describe('Site id (UUID); a site the signed-in user is a member of') });

export const DeletedSiteSchema = z.object({
  id: uuidSchema,
  name: z.string(),
  deleted_at: isoTimestamp,
  removed: z
    .object({
      api_keys: z.number().int().describe('API keys deleted: they are refused (401) from this moment'),
      visitors: z.number().int(),
      visitor_sessions: z.number().int(),
      leads: z.number().int(),
      commands: z.number().int().describe('Commands deleted; one still running finds its site gone and stops'),
      workflow_runs: z.number().int().describe('Workflow runs deleted (their records and checkpoints)'),
      workflow_runs_terminated: z.number().int().describe('Runs that were RUNNING and were terminated through the engine first'),
      files: z.number().int().describe('Uploaded files removed from storage'),
    })
    .describe('What went with the site'),
});

export const SiteSchema = z.object({
  id: uuidSchema,
  name: z.string(),
  domain: z.string().nullable(),
  created_at: isoTimestamp,
});

export const SiteDetailSchema = SiteSchema.extend({
  settings: z.record(z.string(), z.unknown()).describe('Business settings of the site (see updateSiteSettings)'),
});

const memberRoleSchema = z.enum(SITE_ROLES).describe("The signed-in user's role on the site: owner, admin, member or viewer");
/** A site as its member sees it in their list: with their role. */
export const MemberSiteSchema = SiteSchema.extend({ role: memberRoleSchema });
export const MemberSiteDetailSchema = SiteDetailSchema.extend({ role: memberRoleSchema });

export const visitorSitesQuerySchema = z.strictObject({
  id: uuidSchema.optional().describe('Return only this site'),
  site_id: uuidSchema.optional().describe('Return the visitors of this site (paginated)'),
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('With site_id: page size, 1–100 (default 20)'),
  offset: z.coerce.number().int().min(0).default(0).describe('With site_id: items to skip (default 0)'),
});

const countsByStatus = (what: string) => z.object({ total: z.number().int(), by_status: z.record(z.string(), z.number().int()).describe(what) });

export const SiteStatsSchema = z.object({
  site_id: uuidSchema,
  generated_at: isoTimestamp,
  api_keys: z.object({
    total: z.number().int(),
    active: z.number().int().describe('Neither revoked nor expired'),
    revoked: z.number().int(),
    expired: z.number().int(),
  }),
  api_requests: z.object({
    total: z.number().int().describe('API-key requests recorded for the site'),
    last_24h: z.number().int(),
  }),
  commands: countsByStatus('Command count per status'),
  visitors: z.object({
    total: z.number().int().describe('Distinct visitors (one per fingerprint)'),
    identified: z.number().int().describe('Visitors bound to a lead'),
    humans: z.number().int().describe("Distinct visitors of people's sessions (as the Overview counts them, over all time)"),
    bots: z.number().int().describe("Distinct visitors of bot sessions (a known bot's, crawler's or headless browser's User-Agent, or none)"),
  }),
  sessions: z.object({
    total: z.number().int(),
    active: z.number().int().describe('Open and not yet expired'),
    last_24h: z.number().int().describe('Started in the last 24 hours'),
    humans: z.number().int().describe("People's sessions (as the Overview counts them, over all time)"),
    bots: z.number().int().describe('Bot sessions, left out of the Overview and of the analytics routes'),
  }),
  events: z.object({
    total: z.number().int().describe('Stored tracking events'),
    last_24h: z.number().int().describe('Received in the last 24 hours'),
  }),
  uploads: z.object({ total: z.number().int(), bytes: z.number().int().describe('Total size of uploaded files') }),
  leads: countsByStatus('Lead count per status (new, contacted, qualified, converted, lost)'),
  segments: z.object({ total: z.number().int(), active: z.number().int().describe('Segments with is_active') }),
  requirements: countsByStatus('Requirement count per status'),
});

/** A browser origin as browsers send it: scheme://host[:port], no path; normalized to lower case. */
export const originSchema = z
  .string()
  .trim()
  .max(300)
  .transform((value, ctx) => {
    const origin = normalizeOrigin(value);
    if (!origin) {
      ctx.addIssue({ code: 'custom', message: 'Must be an origin such as https://app.example.com (http or https, no path)' });
      return z.NEVER;
    }
    return origin;
  })
  .describe('Origin allowed to call the public tracking routes, e.g. https://app.example.com (scheme, host and optional port; no path)');

/** scheme://host[:port] in lower case (default ports dropped), or null when `value` is not such an origin. */
export function normalizeOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    if (url.username || url.password) return null;
    if (url.pathname !== '/' || url.search || url.hash || /[?#]/.test(value) || /^[a-z]+:\/\/[^/]*\/./i.test(value)) return null;
    return url.origin.toLowerCase();
  } catch {
    return null;
  }
}

export const siteOriginItemPathSchema = sitePathSchema.extend({ origin_id: uuidSchema.describe('Allowed origin id') });
export const addSiteOriginBodySchema = z.strictObject({ origin: originSchema });
/** Extra allowed origins given when a site is created in the console (each checked like one added later). */
export const siteOriginListSchema = z.array(originSchema).max(50, 'At most 50 origins at once').describe('Extra allowed origins');

export const SiteOriginSchema = z.object({
  id: uuidSchema,
  origin: z.string().describe('scheme://host[:port]'),
  created_at: isoTimestamp,
});

export type SiteOrigin = z.infer<typeof SiteOriginSchema>;
export type CreateSiteInput = z.infer<typeof createSiteBodySchema>;
export type UpdateSiteInput = z.infer<typeof updateSiteBodySchema>;
export type DeletedSite = z.infer<typeof DeletedSiteSchema>;
export type Site = z.infer<typeof SiteSchema>;
export type SiteDetail = z.infer<typeof SiteDetailSchema>;
export type SiteStats = z.infer<typeof SiteStatsSchema>;
