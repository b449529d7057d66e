import { sql, type SQL } from 'drizzle-orm';
import { getDb, type Db } from '@/lib/db/client';
import { rows } from '@/lib/db/raw';
import { suppressionHash } from '@/lib/email/service';

/**
 * Erasure of a person: everything stored about them deleted in one transaction. A lead takes its
 * visitors, their sessions, events, segment memberships and uploads, its emails, notes, field
 * history, enrollments, the agents' conversations with them (and the commands of those), webhook
 * events that carried their data and mined-people entries. The address goes on the suppression list
 * as a hash (never mailed again, not kept). Rolled-up analytics keep their anonymous counts.
 */
export interface Erased {
  leads: number;
  visitors: number;
  sessions: number;
  events: number;
  emails: number;
  conversations: number;
  files: number;
  suppressed: boolean;
  /** Storage keys of the deleted uploads: the files go once the transaction committed. */
  storageKeys: string[];
}

const ids = (list: string[]) =>
  sql`array[${sql.join(
    list.map((id) => sql`${id}`),
    sql`, `,
  )}]::uuid[]`;
const uuidArray = (list: string[]) => (list.length ? ids(list) : sql`array[]::uuid[]`);

/** What an erased person's id or address reads as in a stored request path. */
const ERASED = '{erased}';

/** A regular expression matching `text` literally. */
const regexpOf = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const n = async (tx: Db, statement: SQL) =>
  (await rows<{ n: number }>(sql`with done as (${statement} returning 1) select count(*)::int as n from done`, tx))[0].n;

/** Deletes the visitors (with sessions, events, uploads, conversations) and what mentions them or `extra` (ids, the address). */
async function eraseVisitors(
  tx: Db,
  siteId: string,
  visitorIds: string[],
  leadId: string | null,
  mentions: string[],
): Promise<Omit<Erased, 'leads' | 'suppressed'>> {
  const site = sql`${siteId}::uuid`;
  const visitors = uuidArray(visitorIds);
  const byLead = leadId ? sql`lead_id = ${leadId}::uuid or` : sql``;
  const [{ sessions, events }] = await rows<{ sessions: number; events: number }>(
    sql`select count(distinct s.id)::int as sessions, coalesce(sum(s.event_count), 0)::int as events
          from visitor_sessions s where s.site_id = ${site} and (${byLead} s.visitor_id = any(${visitors}))`,
    tx,
  );
  const conversationIds = (
    await rows<{ id: string }>(sql`select id from conversations where site_id = ${site} and (${byLead} visitor_id = any(${visitors}))`, tx)
  ).map((r) => r.id);
  const conversations = uuidArray(conversationIds);
  await tx.execute(sql`delete from commands where site_id = ${site} and conversation_id = any(${conversations})`);
  await tx.execute(sql`delete from conversations where site_id = ${site} and id = any(${conversations})`);
  const storageKeys = (
    await rows<{ storage_key: string }>(
      sql`delete from visitor_uploads where site_id = ${site} and visitor_id = any(${visitors}) returning storage_key`,
      tx,
    )
  ).map((r) => r.storage_key);
  // Sessions bound to the lead from another visitor's browser go too (with their events).
  if (leadId) await tx.execute(sql`delete from visitor_sessions where site_id = ${site} and lead_id = ${leadId}::uuid`);
  const visitorCount = await n(tx, sql`delete from visitors where site_id = ${site} and id = any(${visitors})`);
  const emailWhere = sql.join(
    mentions
      .filter((m) => m.includes('@'))
      .map((m) => sql`${m} = any(to_addresses) or from_address ilike ${`%${m.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`),
    sql` or `,
  );
  const emails = await n(
    tx,
    sql`delete from email_messages where site_id = ${site} and (${leadId ? sql`lead_id = ${leadId}::uuid or conversation_id = any(${conversations})` : sql`conversation_id = any(${conversations})`}${
      mentions.some((m) => m.includes('@')) ? sql` or ${emailWhere}` : sql``
    })`,
  );
  // Webhook events that carried the person's data, with their deliveries.
  for (const m of mentions) {
    const like = `%${m.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const events = sql`select id from outbound_events where site_id = ${site} and data::text ilike ${like}`;
    await tx.execute(
      sql`delete from webhook_attempts where site_id = ${site} and delivery_id in (select id from webhook_deliveries where event_id in (${events}))`,
    );
    await tx.execute(sql`delete from webhook_deliveries where site_id = ${site} and event_id in (${events})`);
    await tx.execute(sql`delete from outbound_events where site_id = ${site} and id in (${events})`);
    // Request logs name the person's ids in their paths (`/api/leads/{id}/…`): the id becomes `{erased}`,
    // the entry stays (a key's usage counts and a platform app's audit trail remain true). Usage rows of one
    // minute that now read alike are added into one, as the usage writer counts them.
    const named = regexpOf(m);
    await tx.execute(sql`with renamed as (
        delete from api_key_usage where site_id = ${site} and route ilike ${like}
        returning key_id, site_id, method, regexp_replace(route, ${named}, ${ERASED}, 'gi') as route, status, created_at, requests)
      insert into api_key_usage (key_id, site_id, method, route, status, created_at, requests)
      select key_id, site_id, method, route, status, created_at, sum(requests)::int from renamed group by 1, 2, 3, 4, 5, 6
      on conflict (key_id, created_at, method, route, status) do update set requests = api_key_usage.requests + excluded.requests`);
    await tx.execute(
      sql`update platform_audit_log set route = regexp_replace(route, ${named}, ${ERASED}, 'gi') where site_id = ${site} and route ilike ${like}`,
    );
  }
  return { visitors: visitorCount, sessions, events, emails, conversations: conversationIds.length, files: storageKeys.length, storageKeys };
}

/** Erases the site's lead and everything about the person; undefined when the lead is not the site's. */
export async function eraseLead(siteId: string, leadId: string): Promise<Erased | undefined> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [lead] = await rows<{ email: string }>(
      sql`select email from leads where site_id = ${siteId}::uuid and id = ${leadId}::uuid for update`,
      tx,
    );
    if (!lead) return undefined;
    const visitorIds = (
      await rows<{ id: string }>(
        sql`select id from visitors where site_id = ${siteId}::uuid and lead_id = ${leadId}::uuid
            union select visitor_id from visitor_sessions where site_id = ${siteId}::uuid and lead_id = ${leadId}::uuid`,
        tx,
      )
    ).map((r) => r.id);
    const erased = await eraseVisitors(tx, siteId, visitorIds, leadId, [leadId, lead.email, ...visitorIds]);
    await tx.execute(sql`delete from finder_mined_people where site_id = ${siteId}::uuid and lead_id = ${leadId}::uuid`);
    await tx.execute(sql`delete from email_recipients where site_id = ${siteId}::uuid and lower(email) = ${lead.email}`);
    await tx.execute(sql`delete from email_suppressions where site_id = ${siteId}::uuid and lower(email) = ${lead.email}`);
    await tx.execute(
      sql`insert into email_suppressions (site_id, email, reason) values (${siteId}::uuid, ${suppressionHash(lead.email)}, 'erased') on conflict do nothing`,
    );
    const leads = await n(tx, sql`delete from leads where site_id = ${siteId}::uuid and id = ${leadId}::uuid`);
    return { ...erased, leads, suppressed: true };
  });
}

/** The lead a visitor is linked to: null when none, undefined when the visitor is not the site's. */
export async function visitorLead(siteId: string, visitorId: string): Promise<string | null | undefined> {
  const [row] = await rows<{ lead_id: string | null }>(sql`select lead_id from visitors where site_id = ${siteId}::uuid and id = ${visitorId}::uuid`);
  return row ? row.lead_id : undefined;
}

/** Erases a visitor without a lead with its sessions, events, uploads and conversations; undefined when it is not the site's. */
export async function eraseVisitor(siteId: string, visitorId: string): Promise<Erased | undefined> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [row] = await rows<{ id: string }>(sql`select id from visitors where site_id = ${siteId}::uuid and id = ${visitorId}::uuid for update`, tx);
    if (!row) return undefined;
    const erased = await eraseVisitors(tx, siteId, [visitorId], null, [visitorId]);
    return { ...erased, leads: 0, suppressed: false };
  });
}
