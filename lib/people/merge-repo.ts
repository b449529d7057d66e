import { and, eq, sql, type SQL } from 'drizzle-orm';
import { ApiError, notFound } from '@/lib/core/errors';
import { getDb, type Db } from '@/lib/db/client';
import { rows } from '@/lib/db/raw';
import { leads } from '@/lib/db/schema';
import type { Lead } from '@/lib/leads/schema';
import { toLead } from '@/lib/leads/service';
import { recordEvent } from '@/lib/webhooks/service';
import { MERGE_FIELDS, type MergeBody, type MergeResult } from './schema';

/** A lead row as stored, every column (custom properties included when the site's leads have them). */
type StoredLead = Record<string, unknown> & { id: string; email: string };

const isEmpty = (v: unknown) =>
  v === null || v === undefined || v === '' || (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0);

/** The kept lead's values after the merge: chosen per field, else kept's, else the other's. */
function mergedValues(kept: StoredLead, other: StoredLead, fields: MergeBody['fields'] = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of MERGE_FIELDS) {
    if (!(field in kept)) continue;
    const choice = fields[field];
    const k = kept[field];
    const o = other[field];
    let value: unknown;
    if (field === 'custom_properties') {
      const ko = (k ?? {}) as Record<string, unknown>;
      const oo = (o ?? {}) as Record<string, unknown>;
      value = choice === 'other' ? { ...ko, ...oo } : { ...oo, ...ko };
    } else if (field === 'notes' && !choice && !isEmpty(k) && !isEmpty(o) && k !== o) {
      value = `${String(k)}\n\n${String(o)}`.slice(0, 10_000);
    } else if (choice === 'other') value = o;
    else if (choice === 'kept') value = k;
    else value = isEmpty(k) ? o : k;
    if (JSON.stringify(value ?? null) !== JSON.stringify(k ?? null)) out[field] = value;
  }
  return out;
}

const count = async (tx: Db, statement: SQL) =>
  (await rows<{ n: number }>(sql`with done as (${statement} returning 1) select count(*)::int as n from done`, tx))[0].n;

/**
 * Merges `otherId` into `keptId`, both of the site, in one transaction: the other lead's visitors,
 * sessions, emails, notes, field history, conversations and sequence enrollments move to the kept
 * lead (in a sequence both are in, the more advanced enrollment stays and the other is removed),
 * the kept lead takes the chosen values, the other lead is deleted. The merge itself is recorded
 * in the kept lead's history (`merged`).
 */
export async function mergeLeads(siteId: string, keptId: string, body: MergeBody): Promise<{ result: MergeResult; lead: Lead }> {
  const otherId = body.other_lead_id;
  if (otherId === keptId) throw new ApiError('INVALID_REQUEST', 'A lead cannot be merged into itself');
  const db = await getDb();
  return db.transaction(async (tx) => {
    const found = await rows<{ row: StoredLead }>(
      sql`select to_jsonb(l) - 'search_text' as row from leads l where l.site_id = ${siteId}::uuid and l.id in (${keptId}::uuid, ${otherId}::uuid) order by l.id for update`,
      tx,
    );
    const kept = found.find((r) => r.row.id === keptId)?.row;
    const other = found.find((r) => r.row.id === otherId)?.row;
    if (!kept) throw notFound('Lead');
    if (!other) throw notFound('Other lead');
    const site = sql`${siteId}::uuid`;
    const k = sql`${keptId}::uuid`;
    const o = sql`${otherId}::uuid`;

    // Enrollments in a sequence both leads are in: the less advanced one goes.
    const dropped = await rows<{ sequence_id: string; enrollment_id: string }>(
      sql`with pairs as (
            select ko.id as kept_enrollment, oo.id as other_enrollment, oo.sequence_id,
              (oo.next_step > ko.next_step or (oo.next_step = ko.next_step and oo.status = 'active' and ko.status <> 'active')) as other_ahead
            from sequence_enrollments ko join sequence_enrollments oo on oo.sequence_id = ko.sequence_id
            where ko.site_id = ${site} and oo.site_id = ${site} and ko.lead_id = ${k} and oo.lead_id = ${o}
          ), gone as (
            delete from sequence_enrollments e using pairs p
            where e.id = case when p.other_ahead then p.kept_enrollment else p.other_enrollment end
            returning e.id, e.sequence_id
          )
          select sequence_id, id as enrollment_id from gone`,
      tx,
    );
    const finalEmail = String(body.fields?.email === 'other' ? other.email : kept.email);
    const moved = {
      visitors: await count(tx, sql`update visitors set lead_id = ${k} where site_id = ${site} and lead_id = ${o}`),
      sessions: await count(tx, sql`update visitor_sessions set lead_id = ${k} where site_id = ${site} and lead_id = ${o}`),
      emails: await count(tx, sql`update email_messages set lead_id = ${k} where site_id = ${site} and lead_id = ${o}`),
      notes: await count(tx, sql`update lead_notes set lead_id = ${k} where site_id = ${site} and lead_id = ${o}`),
      conversations: await count(tx, sql`update conversations set lead_id = ${k} where site_id = ${site} and lead_id = ${o}`),
      enrollments: await count(
        tx,
        sql`update sequence_enrollments set lead_id = ${k}, email = ${finalEmail}, updated_at = now() where site_id = ${site} and lead_id = ${o}`,
      ),
    };
    await tx.execute(sql`update lead_changes set lead_id = ${k} where site_id = ${site} and lead_id = ${o}`);
    await tx.execute(sql`update finder_mined_people set lead_id = ${k} where site_id = ${site} and lead_id = ${o}`);
    await tx.execute(sql`update sequence_enrollments set email = ${finalEmail} where site_id = ${site} and lead_id = ${k}`);
    await tx.execute(sql`delete from leads where site_id = ${site} and id = ${o}`);

    const values = mergedValues(kept, other, body.fields);
    if (Object.keys(values).length) {
      const sets = Object.entries(values).map(([column, value]) =>
        column === 'custom_properties'
          ? sql`${sql.identifier(column)} = ${JSON.stringify(value)}::jsonb`
          : sql`${sql.identifier(column)} = (jsonb_populate_record(null::leads, ${JSON.stringify({ [column]: value })}::jsonb)).${sql.identifier(column)}`,
      );
      await tx.execute(sql`update leads set ${sql.join(sets, sql`, `)}, updated_at = now() where site_id = ${site} and id = ${k}`);
    }
    await tx.execute(
      sql`insert into lead_changes (site_id, lead_id, field, old_value, new_value)
          values (${site}, ${k}, 'merged', ${JSON.stringify({ lead_id: otherId, name: other.name, email: other.email })}::jsonb,
                  ${JSON.stringify({ lead_id: keptId, enrollments_dropped: dropped.length })}::jsonb)`,
    );
    const [{ searchText: _, ...row }] = await tx
      .select()
      .from(leads)
      .where(and(eq(leads.siteId, siteId), eq(leads.id, keptId)));
    const lead = toLead(row);
    await recordEvent(tx, siteId, 'lead.updated', { lead });
    return { result: { lead_id: keptId, merged_lead_id: otherId, moved, enrollments_dropped: dropped }, lead };
  });
}
