import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { currentDate } from '@/lib/core/clock';
import { ApiError } from '@/lib/core/errors';
import type { SiteRole } from '@/lib/core/principal';
import { sharedBatcher } from '@/lib/db/batch';
import { credentialsChanged } from '@/lib/db/cache-coherence';
import { getDb, type Db } from '@/lib/db/client';
import { isDeadlock, isUniqueViolation } from '@/lib/db/errors';
import { rows } from '@/lib/db/raw';
import { siteMembers, siteOrigins, sites, visitorUploads } from '@/lib/db/schema';
import type { Plan, SitePlanInput } from './plans';
import type { CreateSiteInput, DeletedSite, Site, SiteDetail, SiteOrigin, UpdateSiteInput } from './schema';

type SiteRow = typeof sites.$inferSelect;

const toSite = (row: SiteRow): Site => ({
  id: row.id,
  name: row.name,
  domain: row.domain,
  created_at: row.createdAt.toISOString(),
});

const toSiteDetail = (row: SiteRow): SiteDetail => ({ ...toSite(row), settings: row.settings });

/** Creates a site, with extra allowed origins (already normalized) in the same transaction. */
export async function createSite(ownerId: string, input: CreateSiteInput, origins: string[] = [], on?: Db): Promise<Site> {
  const db = on ?? (await getDb());
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(sites)
      .values({ ownerId, name: input.name, domain: input.domain ?? null })
      .returning();
    if (origins.length) await tx.insert(siteOrigins).values([...new Set(origins)].map((origin) => ({ siteId: row.id, origin })));
    return toSite(row);
  });
}

/** The sites the user is a member of, each with the user's role there. */
export async function listSitesOfMember(userId: string): Promise<(Site & { role: SiteRole })[]> {
  const db = await getDb();
  const found = await db
    .select({ site: sites, role: siteMembers.role })
    .from(siteMembers)
    .innerJoin(sites, eq(sites.id, siteMembers.siteId))
    .where(eq(siteMembers.userId, userId))
    .orderBy(asc(sites.createdAt), asc(sites.id));
  return found.map((r) => ({ ...toSite(r.site), role: r.role }));
}

/** A site of which the user is a member, with their role; undefined otherwise. */
export async function getSiteOfMember(siteId: string, userId: string): Promise<(SiteDetail & { role: SiteRole }) | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({ site: sites, role: siteMembers.role })
    .from(siteMembers)
    .innerJoin(sites, eq(sites.id, siteMembers.siteId))
    .where(and(eq(siteMembers.siteId, siteId), eq(siteMembers.userId, userId)))
    .limit(1);
  return row && { ...toSiteDetail(row.site), role: row.role };
}

/** A site by id. */
export async function getSite(siteId: string): Promise<SiteDetail | undefined> {
  const db = await getDb();
  const [row] = await db.select().from(sites).where(eq(sites.id, siteId)).limit(1);
  return row && toSiteDetail(row);
}

/** Changes the site's name and/or domain (`domain: null` clears it); undefined when the site does not exist. */
export async function updateSite(siteId: string, input: UpdateSiteInput): Promise<Site | undefined> {
  const db = await getDb();
  const [row] = await db
    .update(sites)
    .set({
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.domain !== undefined ? { domain: input.domain } : {}),
      updatedAt: currentDate(),
    })
    .where(eq(sites.id, siteId))
    .returning();
  return row && toSite(row);
}

export type RemovedRows = Omit<DeletedSite['removed'], 'workflow_runs_terminated' | 'files'>;

/**
 * Deletes the site row under a row lock, after `check(site)` accepted it; every table holding the
 * site's data goes with it by `on delete cascade`. Returns what went (counted in the same
 * transaction) and the storage keys of its uploaded files, which the caller removes after the
 * commit; undefined when the site does not exist.
 */
export async function deleteSiteRows(
  siteId: string,
  check: (site: Site) => void,
): Promise<{ site: Site; removed: RemovedRows; storageKeys: string[] } | undefined> {
  const db = await getDb();
  // Writes of the site's own traffic (key usage, events) lock its rows too, in their own order: when
  // the database breaks a lock cycle by aborting the deletion, the deletion runs again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await deleteSiteRowsOnce(db, siteId, check);
    } catch (error) {
      if (!isDeadlock(error) || attempt >= 3) throw error;
    }
  }
}

async function deleteSiteRowsOnce(db: Db, siteId: string, check: (site: Site) => void) {
  const deleted = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(sites).where(eq(sites.id, siteId)).for('update');
    if (!row) return undefined;
    const site = toSite(row);
    check(site);
    const [removed] = await rows<RemovedRows>(
      sql`
      select (select count(*) from api_keys where site_id = ${siteId})::int as api_keys,
             (select count(*) from visitors where site_id = ${siteId})::int as visitors,
             (select count(*) from visitor_sessions where site_id = ${siteId})::int as visitor_sessions,
             (select count(*) from leads where site_id = ${siteId})::int as leads,
             (select count(*) from commands where site_id = ${siteId})::int as commands,
             (select count(*) from workflow_runs where site_id = ${siteId})::int as workflow_runs`,
      tx,
    );
    const files = await tx.select({ key: visitorUploads.storageKey }).from(visitorUploads).where(eq(visitorUploads.siteId, siteId));
    await tx.delete(sites).where(eq(sites.id, siteId));
    return { site, removed, storageKeys: files.map((f) => f.key) };
  });
  // Its keys went with it: refused on every process before this answers (after the commit, so no lookup keeps them again).
  if (deleted) await credentialsChanged();
  return deleted;
}

/** The user who owns the site (undefined when there is no such site). */
export async function siteOwnerId(siteId: string): Promise<string | undefined> {
  const db = await getDb();
  const [row] = await db.select({ ownerId: sites.ownerId }).from(sites).where(eq(sites.id, siteId)).limit(1);
  return row?.ownerId;
}

/** Sets a site's plan (operators only: `npm run site:plan`). Returns false when the site does not exist. */
export async function setSitePlan(siteId: string, input: SitePlanInput): Promise<boolean> {
  const db = await getDb();
  const enterprise = input.plan === 'enterprise';
  const updated = await db
    .update(sites)
    .set({
      plan: input.plan,
      rateLimitPerMinute: enterprise ? input.rate_limit_per_minute : null,
      concurrencyLimit: enterprise ? input.concurrency_limit : null,
      updatedAt: currentDate(),
    })
    .where(eq(sites.id, siteId))
    .returning({ id: sites.id });
  // Its keys' requests are limited by the new plan from the next one on, on every process.
  if (updated.length) await credentialsChanged();
  return updated.length > 0;
}

type OriginRow = typeof siteOrigins.$inferSelect;
const toOrigin = (row: OriginRow): SiteOrigin => ({ id: row.id, origin: row.origin, created_at: row.createdAt.toISOString() });

export async function listSiteOrigins(siteId: string): Promise<SiteOrigin[]> {
  const db = await getDb();
  const rows = await db.select().from(siteOrigins).where(eq(siteOrigins.siteId, siteId)).orderBy(asc(siteOrigins.createdAt), asc(siteOrigins.id));
  return rows.map(toOrigin);
}

/** Adds an allowed origin; 409 CONFLICT when the site already has it. */
export async function addSiteOrigin(siteId: string, origin: string): Promise<SiteOrigin> {
  const db = await getDb();
  try {
    const [row] = await db.insert(siteOrigins).values({ siteId, origin }).returning();
    return toOrigin(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('CONFLICT', 'This origin is already allowed for the site');
    throw error;
  }
}

/** Removes an allowed origin of the site. Returns false when the site has no such origin. */
export async function removeSiteOrigin(siteId: string, originId: string): Promise<boolean> {
  const db = await getDb();
  const deleted = await db
    .delete(siteOrigins)
    .where(and(eq(siteOrigins.siteId, siteId), eq(siteOrigins.id, originId)))
    .returning({ id: siteOrigins.id });
  return deleted.length > 0;
}

type SiteOrigins = { domain: string | null; origins: string[] };

async function findOriginsOfSites(siteIds: string[]): Promise<(SiteOrigins | undefined)[]> {
  const ids = [...new Set(siteIds)];
  const found = await rows<{ id: string; domain: string | null; origins: string[] | null }>(sql`
    select s.id, s.domain, (select array_agg(o.origin) from site_origins o where o.site_id = s.id) as origins
      from sites s where s.id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`);
  const byId = new Map(found.map((r) => [r.id, { domain: r.domain, origins: r.origins ?? [] }]));
  return siteIds.map((id) => byId.get(id));
}

/**
 * The site's domain and extra allowed origins; undefined when the site does not exist.
 * Concurrent lookups share one query, and never reuse an answer read before the call was made.
 */
export function originsOfSite(siteId: string): Promise<SiteOrigins | undefined> {
  return sharedBatcher('siteOrigins', findOriginsOfSites).submit(siteId);
}

/** Whether some site has `origin` among its allowed origins or one of `domains` as its domain. */
export async function anySiteHasOrigin(origin: string, domains: string[]): Promise<boolean> {
  const [row] = await rows<{ found: boolean }>(sql`
    select exists (select 1 from site_origins where origin = ${origin})
        or exists (select 1 from sites where domain in (${sql.join(
          domains.map((d) => sql`${d}`),
          sql`, `,
        )})) as found`);
  return Boolean(row?.found);
}

/** The site's plan and its custom concurrency (Basic for an unknown site). */
type SitePlan = { plan: Plan; concurrencyLimit: number | null };

async function plansOfSites(siteIds: string[]): Promise<SitePlan[]> {
  const db = await getDb();
  const found = await db
    .select({ id: sites.id, plan: sites.plan, concurrencyLimit: sites.concurrencyLimit })
    .from(sites)
    .where(inArray(sites.id, [...new Set(siteIds)]));
  const byId = new Map(found.map(({ id, ...plan }) => [id, plan]));
  return siteIds.map((id) => byId.get(id) ?? { plan: 'basic', concurrencyLimit: null });
}

/** A site's plan (Basic when the site is gone). Concurrent reads share one query, started after each of them arrived. */
export function planOfSite(siteId: string): Promise<SitePlan> {
  return sharedBatcher('sitePlans', plansOfSites).submit(siteId);
}

/** The plans of an account's sites (one entry per site). */
export async function plansOfOwner(ownerId: string): Promise<Plan[]> {
  const db = await getDb();
  return (await db.select({ plan: sites.plan }).from(sites).where(eq(sites.ownerId, ownerId))).map((r) => r.plan);
}

export async function countSitesOfOwner(ownerId: string, on?: Db): Promise<number> {
  const db = on ?? (await getDb());
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(sites)
    .where(eq(sites.ownerId, ownerId));
  return Number(row.n);
}

/** Every site's visitor data keeping period in days (settings `tracking.data_retention_days`), `fallback` where it names none. */
export const visitorDataRetentionDays = (fallback: number): Promise<{ id: string; days: number }[]> =>
  rows(sql`select id, coalesce((settings -> 'tracking' ->> 'data_retention_days')::int, ${fallback}) as days from sites`);
