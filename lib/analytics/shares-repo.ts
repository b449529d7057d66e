import { sql } from 'drizzle-orm';
import { rows } from '@/lib/db/raw';

export interface ShareRow {
  id: string;
  site_id: string;
  label: string;
  password_hash: string | null;
  created_at: string;
}

const COLUMNS = sql.raw(`id, site_id, label, password_hash, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at`);

export function listShares(siteId: string): Promise<ShareRow[]> {
  return rows<ShareRow>(sql`select ${COLUMNS} from analytics_shares where site_id = ${siteId} order by created_at desc, id desc limit 100`);
}

export async function insertShare(siteId: string, s: { label: string; tokenHash: string; passwordHash: string | null }): Promise<ShareRow> {
  const [row] = await rows<ShareRow>(sql`
    insert into analytics_shares (site_id, label, token_hash, password_hash)
    values (${siteId}, ${s.label}, ${s.tokenHash}, ${s.passwordHash}) returning ${COLUMNS}`);
  return row;
}

export async function deleteShare(siteId: string, id: string): Promise<boolean> {
  const found = await rows<{ id: string }>(sql`delete from analytics_shares where site_id = ${siteId} and id = ${id} returning id`);
  return found.length > 0;
}

/** The link of a token's hash, with its site's name and time zone (undefined: no such link, or revoked). */
export async function shareByTokenHash(tokenHash: string): Promise<(ShareRow & { site_name: string }) | undefined> {
  const [row] = await rows<ShareRow & { site_name: string }>(sql`
    select a.id, a.site_id, a.label, a.password_hash, to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
           s.name as site_name
    from analytics_shares a join sites s on s.id = a.site_id
    where a.token_hash = ${tokenHash}`);
  return row;
}
