import { and, asc, eq, inArray } from 'drizzle-orm';
import { sharedBatcher } from '@/lib/db/batch';
import { getDb } from '@/lib/db/client';
import { sites } from '@/lib/db/schema';
import type { CreateSiteInput, Site, SiteDetail } from './schema';

type SiteRow = typeof sites.$inferSelect;

const toSite = (row: SiteRow): Site => ({
  id: row.id,
  name: row.name,
  domain: row.domain,
  created_at: row.createdAt.toISOString(),
});

const toSiteDetail = (row: SiteRow): SiteDetail => ({ ...toSite(row), settings: row.settings });

export async function createSite(ownerId: string, input: CreateSiteInput): Promise<Site> {
  const db = await getDb();
  const [row] = await db
    .insert(sites)
    .values({ ownerId, name: input.name, domain: input.domain ?? null })
    .returning();
  return toSite(row);
}

export async function listSitesOfOwner(ownerId: string): Promise<Site[]> {
  const db = await getDb();
  const rows = await db.select().from(sites).where(eq(sites.ownerId, ownerId)).orderBy(asc(sites.createdAt), asc(sites.id));
  return rows.map(toSite);
}

/** A site by id; with `ownerId`, only when that user owns it. */
export async function getSite(siteId: string, ownerId?: string): Promise<SiteDetail | undefined> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(sites)
    .where(and(eq(sites.id, siteId), ownerId ? eq(sites.ownerId, ownerId) : undefined))
    .limit(1);
  return row && toSiteDetail(row);
}

/** True when the user owns the site. */
export async function isSiteOwner(siteId: string, userId: string): Promise<boolean> {
  const db = await getDb();
  const [row] = await db
    .select({ id: sites.id })
    .from(sites)
    .where(and(eq(sites.id, siteId), eq(sites.ownerId, userId)))
    .limit(1);
  return Boolean(row);
}

async function findDomains(siteIds: string[]): Promise<(string | null | undefined)[]> {
  const db = await getDb();
  const rows = await db.select({ id: sites.id, domain: sites.domain }).from(sites).where(inArray(sites.id, [...new Set(siteIds)]));
  const byId = new Map(rows.map((r) => [r.id, r.domain]));
  return siteIds.map((id) => byId.get(id));
}

/**
 * The registered domain of a site (null: none; undefined: no such site). Concurrent lookups
 * share one query, and never reuse an answer read before the call was made.
 */
export function siteDomain(siteId: string): Promise<string | null | undefined> {
  return sharedBatcher('siteDomains', findDomains).submit(siteId);
}
