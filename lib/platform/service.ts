import { applyAppMigration, appSchemaStatus } from '@/lib/app-schema/apply';
import { ApiError, found, notFound } from '@/lib/core/errors';
import type { Capability, PlatformKeyPrincipal } from '@/lib/core/principal';
import { cappedPaginationMeta, paginationMeta } from '@/lib/core/schemas';
import type { SendEmailInput, SentEmail } from '@/lib/email/schema';
import { sendEmail, unverifiedRecipients } from '@/lib/email/service';
import { createLead, listLeads } from '@/lib/leads/service';
import { withinSiteCap } from '@/lib/sites/caps';
import type { TrackInput } from '@/lib/visitors/schema';
import { trackEvent } from '@/lib/visitors/service';
import { consumeQuota, quotaStatus, refundQuota, type QuotaOwner } from './quota-repo';
import { countApps, createApp, createPlatformKey, findApp, listAuditEntries, listPlatformKeys, platformIdentity, revokePlatformKey } from './repo';
import type { AppMigrationBody, CreatePlatformKeyInput, LeadBatchResult, PlatformLeadItem, PlatformMe } from './schema';

// ——— Owner side (session routes and console) ———

export { appSchemaName, findPlatformKeyByHash, insertAuditEntry, listApps } from './repo';

/** A new app of the site, within the apps its plan allows. */
export function createAppOf(siteId: string, name: string) {
  return withinSiteCap(
    siteId,
    'platform_apps_per_site',
    (tx) => countApps(siteId, tx),
    (tx) => createApp(siteId, name, tx),
  );
}

export async function createKeyForApp(siteId: string, userId: string, input: CreatePlatformKeyInput) {
  found(await findApp(siteId, input.app_id), 'App');
  return createPlatformKey(siteId, userId, input);
}

export async function listKeysOfSite(siteId: string, appId?: string) {
  if (appId) found(await findApp(siteId, appId), 'App');
  return listPlatformKeys(siteId, appId);
}

export async function revokeKeyOfSite(siteId: string, keyId: string) {
  const outcome = await revokePlatformKey(siteId, keyId);
  if (!outcome) throw notFound('Platform key');
  return { message: outcome === 'revoked' ? 'Platform key revoked' : 'Platform key was already revoked' };
}

export async function auditOfSite(siteId: string, q: { app_id?: string; limit: number; offset: number }) {
  if (q.app_id) found(await findApp(siteId, q.app_id), 'App');
  const { items, total } = await listAuditEntries(siteId, { appId: q.app_id, limit: q.limit, offset: q.offset });
  return { items, meta: paginationMeta(total, q.limit, q.offset) };
}

// ——— Platform API (platform key) ———

const ownerOf = (p: PlatformKeyPrincipal): QuotaOwner => ({ siteId: p.siteId, appId: p.appId });

/** GET /api/platform/me: the key, its site and app, the app's schema and today's quotas. */
export async function introspect(p: PlatformKeyPrincipal): Promise<PlatformMe> {
  const identity = found(await platformIdentity(p.siteId, p.keyId), 'Platform key');
  const [schema, quotas] = await Promise.all([appSchemaStatus(p.siteId, p.appSchema), quotaStatus(ownerOf(p), p.capabilities)]);
  return {
    key: {
      id: identity.key.id,
      name: identity.key.name,
      display: identity.key.display,
      expires_at: identity.key.expires_at,
      capabilities: identity.key.capabilities,
    },
    site: identity.site,
    app: { id: identity.app.id, name: identity.app.name, short_id: identity.app.short_id },
    schema: { name: identity.app.schema, ...schema },
    quotas,
  };
}

/** GET /api/platform/leads: one page of the site's leads (one unit of `leads.read`). */
export async function leadsForApp(p: PlatformKeyPrincipal, q: { search?: string; status?: string; limit: number; offset: number }) {
  await consumeQuota(ownerOf(p), 'leads.read');
  const { items, count } = await listLeads(p.siteId, {
    site_id: p.siteId,
    search: q.search,
    status: q.status as never,
    limit: q.limit,
    offset: q.offset,
    sort_by: 'created_at',
    sort_order: 'desc',
  });
  return { items, meta: cappedPaginationMeta(count, q.limit, q.offset) };
}

/**
 * POST /api/platform/leads: creates each item on its own (an item refused — duplicate email,
 * unknown segment — does not stop the others) and answers one result per item. The batch takes
 * its size from the `leads.write` quota up front, all or nothing, and gives back the refused
 * items' units.
 */
export async function createLeadsForApp(p: PlatformKeyPrincipal, items: PlatformLeadItem[]): Promise<LeadBatchResult> {
  const owner = ownerOf(p);
  const { day } = await consumeQuota(owner, 'leads.write', items.length);
  const results: LeadBatchResult['results'] = [];
  try {
    for (const [index, item] of items.entries()) {
      try {
        results.push({ index, success: true, lead: await createLead(p.siteId, { site_id: p.siteId, ...item }) });
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500) throw error;
        results.push({ index, success: false, error: { code: error.code, message: error.message } });
      }
    }
  } finally {
    await refundQuota(owner, 'leads.write', items.length - results.filter((r) => r.success).length, day);
  }
  const created = results.filter((r) => r.success).length;
  return { created, failed: results.length - created, results };
}

/** POST /api/platform/tracking/event: the visitor tracking ingestion, one unit of `tracking.event.write`. */
export async function trackForApp(p: PlatformKeyPrincipal, input: Omit<TrackInput, 'site_id'>) {
  return withUnits(ownerOf(p), 'tracking.event.write', 1, () => trackEvent(p.siteId, { ...input, site_id: p.siteId }));
}

/**
 * POST /api/platform/email/send. With `email.send` any recipient; with only
 * `email.send.test-only` every recipient must be a verified address of the site owner (403
 * naming the others). One quota unit per recipient, of the capability used; given back when the
 * delivery fails.
 */
export async function sendEmailForApp(p: PlatformKeyPrincipal, input: SendEmailInput): Promise<SentEmail> {
  const capability: Capability = p.capabilities.includes('email.send') ? 'email.send' : 'email.send.test-only';
  if (capability === 'email.send.test-only') {
    const refused = await unverifiedRecipients(p.siteId, input.to);
    if (refused.length) {
      throw new ApiError('FORBIDDEN', "This key may send only to the site owner's verified addresses (email.send.test-only)", {
        not_verified: refused,
      });
    }
  }
  return withUnits(ownerOf(p), capability, input.to.length, () =>
    sendEmail(p.siteId, p.appId, { to: input.to, subject: input.subject, text: input.text, html: input.html, replyTo: input.reply_to }),
  );
}

/**
 * Runs `work` on `units` of the app's daily quota of `capability` (429 when they do not fit); the
 * units come back when it fails. Every platform operation that counts goes through here.
 */
/**
 * POST /api/platform/db/migrations: lints and applies the migration to the key's own app schema
 * (never one the body names); one unit of `db.migrate`, given back when it is refused or fails.
 */
export const migrateAppSchema = (p: PlatformKeyPrincipal, body: AppMigrationBody) =>
  withQuota(p, 'db.migrate', 1, () => applyAppMigration({ siteId: p.siteId, appSchema: p.appSchema, name: body.name, sql: body.sql }));

export function withQuota<T>(p: PlatformKeyPrincipal, capability: Capability, units: number, work: () => Promise<T>): Promise<T> {
  return withUnits(ownerOf(p), capability, units, work);
}

async function withUnits<T>(owner: QuotaOwner, capability: Capability, units: number, work: () => Promise<T>): Promise<T> {
  const { day } = await consumeQuota(owner, capability, units);
  try {
    return await work();
  } catch (error) {
    await refundQuota(owner, capability, units, day);
    throw error;
  }
}
