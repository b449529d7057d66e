import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { sharedBatcher } from '@/lib/db/batch';
import { rows } from '@/lib/db/raw';

/** A site's privacy settings for the tag (settings `tracking`), and today's salt of daily visitor ids when there is one yet. */
export interface SitePrivacy {
  respectGpc: boolean;
  cookieless: boolean;
  salt: string | null;
}

type Lookup = { siteId: string; day: string };

async function findPrivacy(lookups: Lookup[]): Promise<(SitePrivacy | undefined)[]> {
  const ids = [...new Set(lookups.map((l) => l.siteId))];
  const days = [...new Set(lookups.map((l) => l.day))];
  const list = (values: string[], type: 'uuid' | 'date') =>
    sql.join(
      values.map((v) => sql`${v}::${sql.raw(type)}`),
      sql`, `,
    );
  const found = await rows<{ id: string; respect_gpc: boolean | null; cookieless: boolean | null; salts: Record<string, string> | null }>(sql`
    select id, (settings -> 'tracking' ->> 'respect_gpc')::boolean as respect_gpc,
           (settings -> 'tracking' ->> 'cookieless')::boolean as cookieless,
           (select json_object_agg(to_char(day, 'YYYY-MM-DD'), salt) from visitor_salts where day in (${list(days, 'date')})) as salts
    from sites where id in (${list(ids, 'uuid')})`);
  const sites = new Map(found.map((r) => [r.id, r]));
  return lookups.map(({ siteId, day }) => {
    const site = sites.get(siteId);
    return site && { respectGpc: site.respect_gpc !== false, cookieless: site.cookieless === true, salt: site.salts?.[day] ?? null };
  });
}

/**
 * The site's privacy settings and the salt of `day` (UTC, YYYY-MM-DD); undefined for an unknown
 * site. Concurrent lookups share one round trip.
 */
export function sitePrivacy(siteId: string, day: string): Promise<SitePrivacy | undefined> {
  return sharedBatcher('sitePrivacy', findPrivacy).submit({ siteId, day });
}

/**
 * The salt of `day`, made now if the day has none: random, never derived from anything, and the
 * salts of the days before yesterday are deleted in the same statement, so a daily id cannot be
 * recomputed once its day is over.
 */
export async function dailySalt(day: string): Promise<string> {
  const proposed = randomBytes(32).toString('base64url');
  const [made] = await rows<{ salt: string }>(sql`
    with gone as (delete from visitor_salts where day < ${day}::date - 1)
    insert into visitor_salts (day, salt) values (${day}::date, ${proposed})
    on conflict (day) do nothing
    returning salt`);
  if (made) return made.salt;
  // Another request made it first (it has committed: the insert waited for it).
  const [kept] = await rows<{ salt: string }>(sql`select salt from visitor_salts where day = ${day}::date`);
  return kept.salt;
}
