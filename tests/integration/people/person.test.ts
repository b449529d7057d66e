import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { POST as createLeadRoute } from '@/app/api/agents/tools/leads/create/route';
import { POST as mergeToolRoute } from '@/app/api/agents/tools/leads/merge/route';
import { POST as addNoteToolRoute } from '@/app/api/agents/tools/leads/notes/add/route';
import { POST as getNotesToolRoute } from '@/app/api/agents/tools/leads/notes/get/route';
import { POST as qualifyRoute } from '@/app/api/agents/tools/leads/qualify/route';
import { POST as timelineToolRoute } from '@/app/api/agents/tools/leads/timeline/route';
import { GET as exportRoute } from '@/app/api/leads/[lead_id]/export/route';
import { POST as mergeRoute } from '@/app/api/leads/[lead_id]/merge/route';
import { DELETE as deleteNoteRoute } from '@/app/api/leads/[lead_id]/notes/[note_id]/route';
import { GET as listNotesRoute, POST as addNoteRoute } from '@/app/api/leads/[lead_id]/notes/route';
import { DELETE as eraseLeadRoute } from '@/app/api/leads/[lead_id]/route';
import { GET as timelineRoute } from '@/app/api/leads/[lead_id]/timeline/route';
import { POST as enrollRoute } from '@/app/api/sequences/[id]/enrollments/route';
import { POST as createSequenceRoute } from '@/app/api/sequences/route';
import { GET as auditRoute } from '@/app/api/sites/[site_id]/audit/route';
import { DELETE as eraseVisitorRoute } from '@/app/api/visitors/[visitor_id]/route';
import { POST as identifyRoute } from '@/app/api/visitors/identify/route';
import { POST as startRoute } from '@/app/api/visitors/session/route';
import { POST as trackRoute } from '@/app/api/visitors/track/route';
import { getDb } from '@/lib/db/client';
import { rows } from '@/lib/db/raw';
import { suppressedAmong } from '@/lib/email/repo';
import { composeEmail } from '@/lib/email/service';
import { pruneVisitorData } from '@/lib/worker/retention';
import { call, createTenant, uniqueEmail, type Tenant } from '@/tests/helpers/harness';
import { joinedMember } from '@/tests/helpers/members';

/**
 * A person in the CRM through the routes on a real database: the timeline of a lead built from
 * real visits, emails, notes and status changes; notes; the merge of two leads; the export of a
 * person's data; erasure of a lead and of a visitor leaving no row of them in any table; retention;
 * and other sites' and lesser roles' requests refused with nothing changed.
 */
let mine: Tenant;
let other: Tenant;
beforeAll(async () => {
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
});

const keyOf = (t: Tenant, key = t.key) => ({ 'x-api-key': key });
const sa = (t: Tenant) => ({ 'x-sa-api-key': t.key });
const fp = () => `fp-${Math.random().toString(36).slice(2)}`;

async function createLead(t: Tenant, fields: Record<string, unknown> = {}) {
  const res = await call(createLeadRoute, {
    method: 'POST',
    path: '/api/agents/tools/leads/create',
    headers: { authorization: `Bearer ${t.key}` },
    body: { site_id: t.siteId, name: 'Ada Lovelace', email: uniqueEmail(), ...fields },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.lead as { id: string; email: string };
}

/** A real visit: a session through the tag's routes, pages and a conversion, then identify with the email. */
async function visit(t: Tenant, email: string, fingerprint = fp()) {
  const s = (
    await call(startRoute, {
      method: 'POST',
      path: '/api/visitors/session',
      headers: sa(t),
      body: { site_id: t.siteId, fingerprint, url: 'https://shop.example.com/' },
    })
  ).body.data as { session_id: string; visitor_id: string };
  for (const [event_type, url, extra] of [
    ['pageview', 'https://shop.example.com/', {}],
    ['pageview', 'https://shop.example.com/pricing', {}],
    ['conversion', 'https://shop.example.com/pricing', { event_name: 'signup' }],
  ] as const) {
    const res = await call(trackRoute, {
      method: 'POST',
      path: '/api/visitors/track',
      headers: sa(t),
      body: { site_id: t.siteId, session_id: s.session_id, event_type, url, ...extra },
    });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  }
  const identified = await call(identifyRoute, {
    method: 'POST',
    path: '/api/visitors/identify',
    headers: sa(t),
    body: { site_id: t.siteId, session_id: s.session_id, email, firstName: 'Ada', lastName: 'Lovelace' },
  });
  expect(identified.status, JSON.stringify(identified.body)).toBe(200);
  return { ...s, lead_id: identified.body.data.lead_id as string };
}

const addNote = (t: Tenant, leadId: string, body: string, headers: Record<string, string> = keyOf(t)) =>
  call(addNoteRoute, { method: 'POST', path: `/api/leads/${leadId}/notes`, params: { lead_id: leadId }, headers, body: { site_id: t.siteId, body } });

const timeline = (t: Tenant, leadId: string, query: Record<string, string> = {}, headers: Record<string, string> = keyOf(t)) =>
  call(timelineRoute, { path: `/api/leads/${leadId}/timeline`, params: { lead_id: leadId }, headers, query: { site_id: t.siteId, ...query } });

describe('notes and timeline', () => {
  it('builds one list, newest first and paged, from visits, events, emails, notes and status changes', async () => {
    const email = uniqueEmail();
    const v = await visit(mine, email);
    await composeEmail(mine.siteId, { to: email, subject: 'Welcome aboard', text: 'Hello Ada' });
    const note = await addNote(mine, v.lead_id, 'Called: wants a demo next week');
    expect(note.status, JSON.stringify(note.body)).toBe(201);
    expect(note.body.data).toMatchObject({
      lead_id: v.lead_id,
      body: 'Called: wants a demo next week',
      author: { type: 'key', id: expect.any(String) },
    });
    const q = await call(qualifyRoute, {
      method: 'POST',
      path: '/api/agents/tools/leads/qualify',
      headers: { authorization: `Bearer ${mine.key}` },
      body: { site_id: mine.siteId, lead_id: v.lead_id, status: 'qualified' },
    });
    expect(q.status).toBe(200);

    const res = await timeline(mine, v.lead_id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const items = res.body.data.items as { type: string; at: string; [k: string]: unknown }[];
    const types = items.map((i) => i.type);
    for (const t of ['session', 'event', 'email', 'note', 'status_change']) expect(types).toContain(t);
    const ats = items.map((i) => i.at);
    expect([...ats].sort().reverse()).toEqual(ats);
    const session = items.find((i) => i.type === 'session')!;
    expect(session.id).toBe(v.session_id);
    expect((session.pages as { url: string }[]).map((p) => p.url)).toEqual(['https://shop.example.com/', 'https://shop.example.com/pricing']);
    expect(items.find((i) => i.type === 'event')).toMatchObject({ event_type: 'conversion', event_name: 'signup', session_id: v.session_id });
    expect(items.find((i) => i.type === 'email')).toMatchObject({ direction: 'outbound', subject: 'Welcome aboard', to: [email] });
    expect(items.find((i) => i.type === 'status_change')).toMatchObject({ field: 'status', from_value: 'new', to_value: 'qualified' });

    // Paged by cursor: the pages together are the whole list, without repeats.
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await timeline(mine, v.lead_id, { limit: '2', ...(cursor ? { cursor } : {}) });
      expect(page.status).toBe(200);
      seen.push(...page.body.data.items.map((i: { type: string; id: string }) => `${i.type}:${i.id}`));
      cursor = page.body.data.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(items.map((i) => `${i.type}:${i.id}`));

    const onlyNotes = await timeline(mine, v.lead_id, { types: 'note' });
    expect(onlyNotes.body.data.items.map((i: { type: string }) => i.type)).toEqual(['note']);
    expect((await timeline(mine, v.lead_id, { types: 'nope' })).status).toBe(400);
    expect((await timeline(mine, v.lead_id, { cursor: 'bad' })).status).toBe(400);
  });

  it('lists and deletes notes; the author is the member or the key; others get 404 and read keys cannot write', async () => {
    const lead = await createLead(mine);
    const member = await joinedMember(mine.user, mine.siteId, 'member');
    const byMember = await addNote(mine, lead.id, 'From the console', member.auth);
    expect(byMember.status, JSON.stringify(byMember.body)).toBe(201);
    expect(byMember.body.data.author).toEqual({ type: 'member', id: member.id, name: member.email });
    expect((await addNote(mine, lead.id, 'nope', keyOf(mine, mine.readKey))).status).toBe(403);
    const viewer = await joinedMember(mine.user, mine.siteId, 'viewer');
    expect((await addNote(mine, lead.id, 'nope', viewer.auth)).status).toBe(403);
    expect((await addNote(mine, lead.id, '   ')).status).toBe(400);
    // Another site's key, or its lead: 404 / 403 with nothing written.
    expect((await addNote(other, lead.id, 'swap')).status).toBe(404);
    const list = await call(listNotesRoute, {
      path: `/api/leads/${lead.id}/notes`,
      params: { lead_id: lead.id },
      headers: keyOf(mine),
      query: { site_id: mine.siteId },
    });
    expect(list.status).toBe(200);
    expect(list.body.data.map((n: { body: string }) => n.body)).toEqual(['From the console']);
    expect(list.body.meta).toMatchObject({ total: 1 });
    const noteId = byMember.body.data.id;
    const del = (t: Tenant) =>
      call(deleteNoteRoute, {
        method: 'DELETE',
        path: `/api/leads/${lead.id}/notes/${noteId}`,
        params: { lead_id: lead.id, note_id: noteId },
        headers: keyOf(t),
        query: { site_id: t.siteId },
      });
    expect((await del(other)).status).toBe(404);
    expect((await del(mine)).status).toBe(200);
    expect((await del(mine)).status).toBe(404);
    expect((await timeline(other, lead.id)).status).toBe(404);
  });
});

describe('the tools', () => {
  it('add and list notes, read the timeline and merge through the tool routes; another site’s lead is a 404', async () => {
    const [lead, dup] = await Promise.all([createLead(mine), createLead(mine)]);
    const tool = (handler: typeof addNoteToolRoute, path: string, body: Record<string, unknown>, t = mine) =>
      call(handler, {
        method: 'POST',
        path: `/api/agents/tools/${path}`,
        headers: { authorization: `Bearer ${t.key}` },
        body: { site_id: t.siteId, ...body },
      });
    const added = await tool(addNoteToolRoute, 'leads/notes/add', { lead_id: dup.id, body: 'From an agent' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toMatchObject({ success: true, note: { body: 'From an agent', author: { type: 'key' } } });
    expect((await tool(addNoteToolRoute, 'leads/notes/add', { lead_id: dup.id, body: 'x' }, other)).status).toBe(404);
    const merged = await tool(mergeToolRoute, 'leads/merge', { lead_id: lead.id, other_lead_id: dup.id });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body).toMatchObject({ success: true, lead_id: lead.id, moved: { notes: 1 } });
    const notes = await tool(getNotesToolRoute, 'leads/notes/get', { lead_id: lead.id });
    expect(notes.body).toMatchObject({ success: true, notes: [{ body: 'From an agent' }], total: 1 });
    const page = await tool(timelineToolRoute, 'leads/timeline', { lead_id: lead.id, types: ['note', 'field_change'] });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.items.map((i: { type: string }) => i.type).sort()).toEqual(['field_change', 'note']);
  });
});

describe('merge', () => {
  it('moves visits, emails, notes and enrollments to the kept lead, fills gaps, keeps the more advanced enrollment and deletes the other', async () => {
    const keptEmail = uniqueEmail();
    const otherEmail = uniqueEmail();
    const kept = (await visit(mine, keptEmail)).lead_id;
    const second = await visit(mine, otherEmail);
    const otherId = second.lead_id;
    const db = await getDb();
    await db.execute(sql`update leads set company = 'Analytical Engines', phone = '+44 1' where id = ${otherId}`);
    await composeEmail(mine.siteId, { to: otherEmail, subject: 'Other thread', text: 'Hi' });
    await addNote(mine, otherId, 'Note on the duplicate');
    const seq = await call(createSequenceRoute, {
      method: 'POST',
      path: '/api/sequences',
      headers: { authorization: `Bearer ${mine.key}` },
      body: {
        site_id: mine.siteId,
        name: 'Onboarding',
        steps: [
          { delay_minutes: 60, subject: 'Hi', body: 'Hello.' },
          { delay_minutes: 60, subject: 'Again', body: 'Hello.' },
        ],
      },
    });
    const sequenceId = seq.body.data.id;
    await call(enrollRoute, {
      method: 'POST',
      path: `/api/sequences/${sequenceId}/enrollments`,
      params: { id: sequenceId },
      headers: { authorization: `Bearer ${mine.key}` },
      body: { site_id: mine.siteId, lead_ids: [kept, otherId] },
    });
    await db.execute(sql`update sequence_enrollments set next_step = 1 where lead_id = ${otherId}`);

    const merge = (t: Tenant, body: Record<string, unknown>, leadId = kept) =>
      call(mergeRoute, {
        method: 'POST',
        path: `/api/leads/${leadId}/merge`,
        params: { lead_id: leadId },
        headers: keyOf(t),
        body: { site_id: t.siteId, ...body },
      });
    expect((await merge(other, { other_lead_id: otherId })).status).toBe(404);
    expect((await merge(mine, { other_lead_id: kept })).status).toBe(400);
    expect((await merge(mine, { other_lead_id: otherId, fields: { nope: 'kept' } })).status).toBe(400);
    const res = await merge(mine, { other_lead_id: otherId, fields: { name: 'other' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      lead_id: kept,
      merged_lead_id: otherId,
      // The other lead was further along the sequence: its enrollment moves, the kept lead's goes.
      moved: { visitors: 1, sessions: 1, emails: 1, notes: 1, enrollments: 1 },
      enrollments_dropped: [{ sequence_id: sequenceId }],
    });
    const [lead] = await rows<{ email: string; company: string; phone: string }>(sql`select * from leads where id = ${kept}`);
    expect(lead).toMatchObject({ email: keptEmail, company: 'Analytical Engines', phone: '+44 1' });
    expect(await rows(sql`select 1 from leads where id = ${otherId}`)).toEqual([]);
    const [enrollment] = await rows<{ lead_id: string; next_step: number; email: string }>(
      sql`select lead_id, next_step, email from sequence_enrollments where sequence_id = ${sequenceId}`,
    );
    expect(enrollment).toEqual({ lead_id: kept, next_step: 1, email: keptEmail });
    const items = (await timeline(mine, kept, { limit: '100' })).body.data.items as { type: string; field?: string; [k: string]: unknown }[];
    expect(items.filter((i) => i.type === 'session')).toHaveLength(2);
    expect(items.some((i) => i.type === 'field_change' && i.field === 'merged')).toBe(true);
    // The update that took the other lead's company is in the history; the enrollment that moved is on the timeline.
    expect(items).toContainEqual(
      expect.objectContaining({ type: 'field_change', field: 'company', from_value: null, to_value: 'Analytical Engines' }),
    );
    expect(items).toContainEqual(
      expect.objectContaining({ type: 'sequence', action: 'started', sequence_id: sequenceId, sequence_name: 'Onboarding' }),
    );
    expect(items.some((i) => i.type === 'note')).toBe(true);
  });
});

/** Every table with a site_id column: rows of the site whose text mentions any of `needles`. */
async function mentions(siteId: string, needles: string[]): Promise<string[]> {
  const tables = await rows<{ table_name: string }>(
    sql`select c.table_name from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
        where c.table_schema = 'public' and c.column_name = 'site_id' and t.table_type = 'BASE TABLE' order by 1`,
  );
  expect(tables.length).toBeGreaterThan(30);
  const found: string[] = [];
  for (const { table_name } of tables) {
    for (const needle of needles) {
      const hits = await rows<{ n: number }>(
        sql`select count(*)::int as n from ${sql.identifier(table_name)} t where t.site_id = ${siteId}::uuid and lower(t::text) like ${`%${needle.toLowerCase()}%`}`,
      );
      if (hits[0].n > 0) found.push(`${table_name}: ${needle}`);
    }
  }
  return found;
}

describe('a person’s data', () => {
  it('exports everything about the person, then erasure leaves no row of them in any table', async () => {
    const email = uniqueEmail();
    const v = await visit(mine, email);
    await composeEmail(mine.siteId, { to: email, subject: 'Your order', text: 'Thanks' });
    await addNote(mine, v.lead_id, `Prefers mail to ${email}`);
    const exported = await call(exportRoute, {
      path: `/api/leads/${v.lead_id}/export`,
      params: { lead_id: v.lead_id },
      headers: keyOf(mine),
      query: { site_id: mine.siteId },
    });
    expect(exported.status, JSON.stringify(exported.body)).toBe(200);
    const data = exported.body.data;
    expect(data.lead).toMatchObject({ id: v.lead_id, email });
    expect(data.visitors.map((x: { id: string }) => x.id)).toEqual([v.visitor_id]);
    expect(data.sessions[0].events.map((e: { event_type: string }) => e.event_type)).toEqual(['pageview', 'pageview', 'conversion']);
    expect(data.emails).toHaveLength(1);
    expect(data.notes).toHaveLength(1);
    expect(
      (
        await call(exportRoute, {
          path: `/api/leads/${v.lead_id}/export`,
          params: { lead_id: v.lead_id },
          headers: keyOf(other),
          query: { site_id: other.siteId },
        })
      ).status,
    ).toBe(404);

    const erase = (headers: Record<string, string>, t = mine, query: Record<string, string> = { erase: 'true' }) =>
      call(eraseLeadRoute, {
        method: 'DELETE',
        path: `/api/leads/${v.lead_id}`,
        params: { lead_id: v.lead_id },
        headers,
        query: { site_id: t.siteId, ...query },
      });
    // Erasure is a person's act: no key; a member may not; another site's owner sees nothing; erase=true is required.
    expect((await erase(keyOf(mine))).status).toBe(401);
    const member = await joinedMember(mine.user, mine.siteId, 'member');
    expect((await erase(member.auth)).status).toBe(403);
    expect((await erase(other.user.auth, other)).status).toBe(404);
    expect((await erase(mine.user.auth, mine, {})).status).toBe(400);
    expect(await mentions(mine.siteId, [v.lead_id])).not.toEqual([]);

    const admin = await joinedMember(mine.user, mine.siteId, 'admin');
    const res = await erase(admin.auth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ erased: true, suppressed: true, deleted: { leads: 1, visitors: 1, sessions: 1, events: 3, emails: 1 } });
    expect(await mentions(mine.siteId, [v.lead_id, v.visitor_id, v.session_id, email])).toEqual([]);
    // The request log keeps the export by the site's key, the lead's id replaced in its path.
    const usage = await rows<{ requests: number }>(
      sql`select requests from api_key_usage where site_id = ${mine.siteId}::uuid and route = '/api/leads/{erased}/export'`,
    );
    expect(usage.reduce((sum, u) => sum + u.requests, 0)).toBe(1);
    // Never mailed again: the hashed entry refuses the address.
    expect([...(await suppressedAmong(mine.siteId, [email, email.toUpperCase()]))]).toEqual([email, email.toUpperCase()]);
    await expect(composeEmail(mine.siteId, { to: email, subject: 'Again', text: 'Hi' })).rejects.toMatchObject({ code: 'UNPROCESSABLE' });
    // The audit log records it, without the person's data.
    const audit = await call(auditRoute, { path: `/api/sites/${mine.siteId}/audit`, params: { site_id: mine.siteId }, headers: mine.user.auth });
    const entry = audit.body.data.find((e: { kind: string }) => e.kind === 'person_erased');
    expect(entry).toMatchObject({ user_id: admin.id, detail: { visitors: 1, sessions: 1, emails: 1 } });
    expect(JSON.stringify(entry)).not.toContain(email);
    expect((await erase(admin.auth)).status).toBe(404);
  });

  it('erases a visitor without a lead; a visitor with a lead is refused', async () => {
    const s = (
      await call(startRoute, { method: 'POST', path: '/api/visitors/session', headers: sa(mine), body: { site_id: mine.siteId, fingerprint: fp() } })
    ).body.data;
    await call(trackRoute, {
      method: 'POST',
      path: '/api/visitors/track',
      headers: sa(mine),
      body: { site_id: mine.siteId, session_id: s.session_id, event_type: 'pageview', url: 'https://shop.example.com/a' },
    });
    const erase = (id: string, headers: Record<string, string>, t = mine) =>
      call(eraseVisitorRoute, { method: 'DELETE', path: `/api/visitors/${id}`, params: { visitor_id: id }, headers, query: { site_id: t.siteId } });
    expect((await erase(s.visitor_id, other.user.auth, other)).status).toBe(404);
    expect((await erase(s.visitor_id, keyOf(mine))).status).toBe(401);
    const res = await erase(s.visitor_id, mine.user.auth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.deleted).toMatchObject({ visitors: 1, sessions: 1, events: 1 });
    expect(await mentions(mine.siteId, [s.visitor_id, s.session_id])).toEqual([]);
    const withLead = await visit(mine, uniqueEmail());
    expect((await erase(withLead.visitor_id, mine.user.auth)).status).toBe(409);
  });
});

describe('retention', () => {
  it('deletes sessions and events older than the site’s data_retention_days, and nothing newer or of other sites', async () => {
    const t = await createTenant();
    const db = await getDb();
    await db.execute(
      sql`update sites set settings = jsonb_set(coalesce(settings, '{}'::jsonb), '{tracking}', '{"data_retention_days": 30}'::jsonb) where id = ${t.siteId}`,
    );
    const old = await visit(t, uniqueEmail());
    const recent = await visit(t, uniqueEmail());
    const kept = await visit(other, uniqueEmail());
    const day = 86_400_000;
    const past = Date.now() - 40 * day;
    for (const s of [old, kept]) {
      await db.execute(
        sql`update visitor_sessions set status = 'closed', created_at = ${past}, started_at = ${past}, last_activity_at = ${past} where id = ${s.session_id}`,
      );
      await db.execute(sql`update session_events set received_at = ${past} where session_id = ${s.session_id}`);
    }
    await pruneVisitorData(new Date());
    const left = async (id: string) => (await rows<{ n: number }>(sql`select count(*)::int as n from session_events where session_id = ${id}`))[0].n;
    expect(await rows(sql`select 1 from visitor_sessions where id = ${old.session_id}`)).toEqual([]);
    expect(await left(old.session_id)).toBe(0);
    expect(await left(recent.session_id)).toBe(3);
    // Another site keeps the default 730 days.
    expect(await left(kept.session_id)).toBe(3);
    // The lead stays: retention is about visits.
    expect(await rows(sql`select 1 from leads where id = ${old.lead_id}`)).toHaveLength(1);
  });
});
