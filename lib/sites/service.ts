import { visits } from '@/lib/analytics/service';
import { currentDate } from '@/lib/core/clock';
import { found, notFound } from '@/lib/core/errors';
import { withinAccountCap } from './caps';
import { countSitesOfOwner, createSite, getSite, getSiteOfMember, listSitesOfMember, removeSiteOrigin, siteOwnerId, updateSite } from './repo';
import type { CreateSiteInput, SiteStats, UpdateSiteInput } from './schema';
import { recentFigures, siteCounts } from './stats-repo';

/** A new site of the account, within the sites its plan allows (403 PLAN_LIMIT_REACHED beyond). */
export function createSiteOf(ownerId: string, input: CreateSiteInput, origins: string[] = []) {
  return withinAccountCap(
    ownerId,
    'sites_per_account',
    (tx) => countSitesOfOwner(ownerId, tx),
    (tx) => createSite(ownerId, input, origins, tx),
  );
}

/** Sites the user is a member of, with their role; with `id`, just that one (404 when the user is not a member). */
export async function sitesForUser(userId: string, query: { id?: string }) {
  if (!query.id) return listSitesOfMember(userId);
  return found(await getSiteOfMember(query.id, userId), 'Site');
}

/** The user who owns the site (404 when there is no such site). */
export async function siteOwner(siteId: string): Promise<string> {
  return found(await siteOwnerId(siteId), 'Site');
}

export async function siteDetail(siteId: string) {
  return found(await getSite(siteId), 'Site');
}

export async function removeOrigin(siteId: string, originId: string) {
  if (!(await removeSiteOrigin(siteId, originId))) throw notFound('Allowed origin');
  return { message: 'Origin removed' };
}

export async function updateSiteOf(siteId: string, input: UpdateSiteInput) {
  return found(await updateSite(siteId, input), 'Site');
}

export { addSiteOrigin, getSite, getSiteOfMember, listSiteOrigins, listSitesOfMember, planOfSite } from './repo';
/** Live counts for one site; its visits (people and bots apart) are the analytics service's, as on the Overview. */
export async function siteStats(siteId: string, now = currentDate()): Promise<SiteStats> {
  const [counts, all] = await Promise.all([siteCounts(siteId, now), visits(siteId)]);
  return {
    ...counts,
    visitors: { ...counts.visitors, humans: all.humans.visitors, bots: all.bots.visitors },
    sessions: { ...counts.sessions, humans: all.humans.sessions, bots: all.bots.sessions },
  };
}

/**
 * The site's figures over the last `windowHours` (dailyStandUp): visits as the analytics service
 * counts them (people, and bots apart), events of people's sessions, leads and commands.
 */
export async function siteFigures(siteId: string, windowHours: number, now = currentDate()) {
  const from = now.getTime() - windowHours * 3_600_000;
  const [figures, window] = await Promise.all([recentFigures(siteId, windowHours, now), visits(siteId, { from })]);
  return {
    ...figures,
    visitors: window.humans.visitors,
    sessions: window.humans.sessions,
    bot_visitors: window.bots.visitors,
    bot_sessions: window.bots.sessions,
  };
}
