import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { openedDatabaseKind } from '@/lib/db/client';
import { rows } from '@/lib/db/raw';
import { LEAD_SEARCH_SORT_CAP, LEAD_SEARCH_WALK, findLead } from '@/lib/leads/repo';
import { createLeadTool, getLeadsTool, identifyLeadTool, qualifyLeadTool, updateLeadTool } from '@/lib/tools/leads';
import { createSegmentTool } from '@/lib/tools/segments';
import { findVisitor } from '@/lib/visitors/visitors-repo';
import { presenters } from '@/tests/helpers/auth-matrix';
import { createTenant, createVisitor, uniqueEmail, type Tenant } from '@/tests/helpers/harness';
import { suiteTenants } from '@/tests/helpers/tenants';
import { SEARCHED_SORTS, viaRest } from '@/tests/helpers/tools';

const [mine, other] = suiteTenants(2);
let auth: Record<string, string>;
beforeAll(() => {
  auth = presenters.bearer(mine.key);
});

async function newLead(t: Tenant, fields: Record<string, unknown> = {}) {
  const res = await viaRest(createLeadTool, presenters.bearer(t.key), { site_id: t.siteId, name: 'Lead', email: uniqueEmail(), ...fields });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.lead;
}

describe('leads/create', () => {
  it('returns {success, lead} and stores the lead with a lower-case email', async () => {
    const res = await viaRest(createLeadTool, auth, {
      site_id: mine.siteId,
      name: 'Ada Lovelace',
      email: 'Ada.Lovelace@Example.com',
      phone: '+44 20 1234',
      company: 'Analytical Engines',
      lead_score: 90,
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['lead', 'success']);
    expect(res.body.lead).toEqual({
      id: expect.any(String),
      site_id: mine.siteId,
      name: 'Ada Lovelace',
      email: 'ada.lovelace@example.com',
      status: 'new',
      phone: '+44 20 1234',
      position: null,
      company: 'Analytical Engines',
      notes: null,
      origin: null,
      segment_id: null,
      campaign_id: null,
      assignee_id: null,
      lead_score: 90,
      custom_properties: {},
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const stored = await findLead(mine.siteId, res.body.lead.id);
    expect(stored).toMatchObject({ email: 'ada.lovelace@example.com', leadScore: 90 });
  });

  it('answers 409 CONFLICT for an email the site already has, whatever its case', async () => {
    const email = uniqueEmail();
    await newLead(mine, { email });
    const res = await viaRest(createLeadTool, auth, { site_id: mine.siteId, name: 'Again', email: email.toUpperCase() });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, error: { code: 'CONFLICT', details: { email } } });
  });

  it('a refused duplicate writes nothing: no dead row version is left in the table (embedded database, which no autovacuum cleans)', async () => {
    if (openedDatabaseKind() !== 'pglite') return; // Postgres reports another connection's dead rows only after its own delay
    const deadRows = async () => {
      await rows(sql`select pg_stat_force_next_flush()`);
      const [r] = await rows<{ n: number }>(sql`select n_dead_tup::int as n from pg_stat_user_tables where relname = 'leads'`);
      return r.n;
    };
    const email = uniqueEmail();
    await newLead(mine, { email });
    const before = await deadRows();
    for (let i = 0; i < 3; i++) {
      const res = await viaRest(createLeadTool, auth, { site_id: mine.siteId, name: 'Again', email });
      expect(res.status).toBe(409);
    }
    expect(await deadRows()).toBe(before);
  });

  it('allows the same email at another site', async () => {
    const email = uniqueEmail();
    await newLead(mine, { email });
    await newLead(other, { email });
  });

  it("accepts the site's own segment and refuses another site's (404)", async () => {
    const own = await viaRest(createSegmentTool, auth, { site_id: mine.siteId, name: 'Own' });
    const foreign = await viaRest(createSegmentTool, presenters.bearer(other.key), { site_id: other.siteId, name: 'Foreign' });
    expect((await newLead(mine, { segment_id: own.body.segment.segment_id })).segment_id).toBe(own.body.segment.segment_id);
    const res = await viaRest(createLeadTool, auth, {
      site_id: mine.siteId,
      name: 'x',
      email: uniqueEmail(),
      segment_id: foreign.body.segment.segment_id,
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});

describe('leads/get', () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant();
    const k = presenters.bearer(tenant.key);
    const people = [
      { name: 'Alice Smith', email: 'alice@acme.example.org', company: 'ACME Corp', lead_score: 10, status: 'new' },
      { name: 'Bob Stone', email: 'bob@globex.example.org', company: 'Globex', lead_score: 70, status: 'qualified' },
      { name: 'Carol Acme', email: 'carol@initech.example.org', company: null, lead_score: 40, status: 'new' },
      { name: 'Dan 100%_Real', email: 'dan@umbrella.example.org', company: 'Umbrella', lead_score: null, status: 'lost' },
    ];
    for (const p of people) {
      const res = await viaRest(createLeadTool, k, {
        site_id: tenant.siteId,
        ...Object.fromEntries(Object.entries(p).filter(([, v]) => v !== null)),
      });
      expect(res.status).toBe(201);
    }
    for (let i = 0; i < 56; i++) {
      await viaRest(createLeadTool, k, { site_id: tenant.siteId, name: `Filler ${i}`, email: `filler${i}@example.net` });
    }
  });
  const get = (body: Record<string, unknown>) => viaRest(getLeadsTool, presenters.bearer(tenant.readKey), { site_id: tenant.siteId, ...body });

  it('pages with limit 50 by default; counts up to one past the page: capped before the last page, exact on it', async () => {
    const res = await get({});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, total: 51, total_capped: true, limit: 50, offset: 0, has_more: true });
    expect(res.body.leads).toHaveLength(50);
    const last = await get({ offset: 50 });
    expect(last.body).toMatchObject({ total: 60, total_capped: false, offset: 50, has_more: false });
    expect(last.body.leads).toHaveLength(10);
    const ids = new Set([...res.body.leads, ...last.body.leads].map((l: { id: string }) => l.id));
    expect(ids.size).toBe(60);
  });

  it("filters by segment: only the site's leads in it, combined with search and status", async () => {
    const k = presenters.bearer(tenant.key);
    const segment = (await viaRest(createSegmentTool, k, { site_id: tenant.siteId, name: 'Newsletter readers' })).body.segment.segment_id;
    const empty = (await viaRest(createSegmentTool, k, { site_id: tenant.siteId, name: 'Nobody yet' })).body.segment.segment_id;
    const members = (await get({ search: 'example.org', sort_by: 'name', sort_order: 'asc' })).body.leads.slice(0, 2);
    for (const lead of members)
      expect((await viaRest(updateLeadTool, k, { site_id: tenant.siteId, lead_id: lead.id, segment_id: segment })).status).toBe(200);
    const names = async (body: Record<string, unknown>) =>
      (await get({ ...body, sort_by: 'name', sort_order: 'asc' })).body.leads.map((l: { name: string }) => l.name);
    expect(await names({ segment_id: segment })).toEqual(['Alice Smith', 'Bob Stone']);
    expect(await names({ segment_id: segment, status: 'qualified' })).toEqual(['Bob Stone']);
    expect(await names({ segment_id: segment, search: 'acme' })).toEqual(['Alice Smith']);
    expect(await names({ segment_id: empty })).toEqual([]);
    // Another site's segment finds none of this site's leads; a malformed id is refused.
    const stranger = await createTenant();
    const foreign = (await viaRest(createSegmentTool, presenters.bearer(stranger.key), { site_id: stranger.siteId, name: 'Theirs' })).body.segment
      .segment_id;
    expect((await get({ segment_id: foreign })).body).toMatchObject({ leads: [], total: 0 });
    expect((await get({ segment_id: randomUUID() })).body).toMatchObject({ leads: [], total: 0 });
    expect((await get({ segment_id: 'not-a-uuid' })).status).toBe(400);
    for (const lead of members) await viaRest(updateLeadTool, k, { site_id: tenant.siteId, lead_id: lead.id, segment_id: null });
  });

  it('accepts limit 500 and refuses 501', async () => {
    expect((await get({ limit: 500 })).body.leads).toHaveLength(60);
    expect((await get({ limit: 501 })).status).toBe(400);
  });

  it('searches name, email and company case-insensitively', async () => {
    const names = async (search: string) =>
      (await get({ search, sort_by: 'name', sort_order: 'asc' })).body.leads.map((l: { name: string }) => l.name);
    expect(await names('ACME')).toEqual(['Alice Smith', 'Carol Acme']); // company and name
    expect(await names('GLOBEX.example')).toEqual(['Bob Stone']); // email
    expect(await names('stone')).toEqual(['Bob Stone']);
    expect(await names('nobody-matches')).toEqual([]);
  });

  it('counts the matches of a search up to one past the page, exactly on the last page and past the end', async () => {
    const page = await get({ search: 'example.org', limit: 3 });
    expect(page.body).toMatchObject({ total: 4, total_capped: true, limit: 3, offset: 0, has_more: true });
    expect((await get({ search: 'example.org', limit: 4 })).body).toMatchObject({ total: 4, total_capped: false, has_more: false });
    expect((await get({ search: 'example.org', limit: 3, offset: 3 })).body).toMatchObject({ total: 4, total_capped: false, has_more: false });
    const past = await get({ search: 'example.org', offset: 10 });
    expect(past.body).toMatchObject({ leads: [], total: 4, total_capped: false, has_more: false });
    expect((await get({ search: 'example.org', offset: 4 })).body).toMatchObject({ leads: [], total: 4, total_capped: false, has_more: false });
  });

  it('treats LIKE wildcards and quotes in the search as plain text', async () => {
    expect((await get({ search: '100%_' })).body.leads.map((l: { name: string }) => l.name)).toEqual(['Dan 100%_Real']);
    expect((await get({ search: '%' })).body.total).toBe(1);
    expect((await get({ search: "' or 1=1 --" })).body.total).toBe(0);
  });

  it('sorts by a whitelisted field in either order and filters by status', async () => {
    const scores = (await get({ search: 'example.org', sort_by: 'lead_score', sort_order: 'desc' })).body.leads.map(
      (l: { lead_score: number | null }) => l.lead_score,
    );
    expect(scores).toEqual([null, 70, 40, 10]); // Postgres puts nulls first in descending order
    const asc = (await get({ search: 'example.org', sort_by: 'name', sort_order: 'asc' })).body.leads.map((l: { name: string }) => l.name);
    expect(asc).toEqual(['Alice Smith', 'Bob Stone', 'Carol Acme', 'Dan 100%_Real']);
    const qualified = await get({ status: 'qualified' });
    expect(qualified.body.leads.map((l: { name: string }) => l.name)).toEqual(['Bob Stone']);
  });

  it("never lists another site's leads", async () => {
    const res = await viaRest(getLeadsTool, presenters.bearer(other.key), { site_id: other.siteId, search: 'example.org' });
    expect(res.body.leads.every((l: { site_id: string }) => l.site_id === other.siteId)).toBe(true);
  });
});

describe('leads/get sorted by a searched field on a large site', () => {
  let tenant: Tenant;
  // LEAD_SEARCH_WALK leads whose names sort first and match nothing, then LEAD_SEARCH_SORT_CAP + 1
  // that share a company (a search the walk of the name index does not fill), and 60 "Dense" ones
  // among the first names (a search the walk fills).
  beforeAll(async () => {
    tenant = await createTenant();
    await rows(sql`insert into leads (site_id, name, email, company)
      select ${tenant.siteId}::uuid, 'Aaa ' || lpad(i::text, 5, '0'), 'aaa' || i || '@example.net', case when i % 50 = 0 then 'Dense' else null end
      from generate_series(1, ${LEAD_SEARCH_WALK}) as i`);
    await rows(sql`insert into leads (site_id, name, email, company)
      select ${tenant.siteId}::uuid, 'Zzz ' || lpad(i::text, 5, '0'), 'zzz' || i || '@example.net', 'Broadco'
      from generate_series(1, ${LEAD_SEARCH_SORT_CAP + 1}) as i`);
  });
  const get = (body: Record<string, unknown>) => viaRest(getLeadsTool, presenters.bearer(tenant.readKey), { site_id: tenant.siteId, ...body });
  const names = (res: { body: { leads: { name: string }[] } }) => res.body.leads.map((l) => l.name);

  it('answers a search the walk fills in order, paged like any other', async () => {
    const dense = Array.from({ length: LEAD_SEARCH_WALK / 50 }, (_, i) => `Aaa ${String((i + 1) * 50).padStart(5, '0')}`);
    const first = await get({ search: 'DENSE', sort_by: 'name', sort_order: 'asc', limit: 5 });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 6, total_capped: true, has_more: true });
    expect(names(first)).toEqual(dense.slice(0, 5));
    expect(names(await get({ search: 'dense', sort_by: 'name', sort_order: 'asc', limit: 5, offset: 5 }))).toEqual(dense.slice(5, 10));
    const last = await get({ search: 'dense', sort_by: 'company', sort_order: 'desc', limit: 500 });
    expect(last.body).toMatchObject({ total: dense.length, total_capped: false, has_more: false });
  });

  it('refuses 400 INVALID_REQUEST a search matching more than the cap that the walk does not fill; other sorts answer it', async () => {
    // By company, descending: the walk passes the leads without one (first) and the Dense ones before Broadco.
    for (const sort of SEARCHED_SORTS) {
      const res = await get({ search: 'broadco', ...sort });
      expect(res.status, sort.sort_by).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: { code: 'INVALID_REQUEST' } });
    }
    const newest = await get({ search: 'broadco', sort_by: 'created_at', limit: 3 });
    expect(newest.status).toBe(200);
    expect(newest.body).toMatchObject({ total: 4, total_capped: true });
    // Narrowed below the cap, the same sort answers.
    expect(names(await get({ search: 'zzz 0000', sort_by: 'name', sort_order: 'desc', limit: 2 }))).toEqual(['Zzz 00009', 'Zzz 00008']);
  });
});

describe('leads/update and leads/qualify', () => {
  it('changes only the given fields; null clears an optional field', async () => {
    const lead = await newLead(mine, { phone: '123', company: 'Old', notes: 'keep me' });
    const res = await viaRest(updateLeadTool, auth, { site_id: mine.siteId, lead_id: lead.id, company: 'New', phone: null });
    expect(res.status).toBe(200);
    expect(res.body.lead).toMatchObject({ company: 'New', phone: null, notes: 'keep me', name: lead.name, email: lead.email });
    expect(res.body.lead.updated_at >= lead.updated_at).toBe(true);
  });

  it('a search finds a lead by its current name, email and company, whatever the sort', async () => {
    const word = (prefix: string) => `${prefix}${randomUUID().slice(0, 8)}`;
    const [oldName, newName, oldCompany, newCompany, mailbox] = ['Marsh', 'Fenwick', 'Zephyr', 'Halcyon', 'qm'].map(word);
    const lead = await newLead(mine, { name: `Quentin ${oldName}`, company: `${oldCompany} Ltd`, email: `${mailbox}@example.com` });
    const sorts = ['created_at', 'name', 'email', 'company'] as const;
    // Per sort: whether the search lists the lead (name, email and company sorts walk their index).
    const finds = async (search: string) => {
      const found: boolean[] = [];
      for (const sort_by of sorts) {
        const res = await viaRest(getLeadsTool, auth, { site_id: mine.siteId, search, sort_by, sort_order: 'asc' });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        found.push(res.body.leads.some((l: { id: string }) => l.id === lead.id));
      }
      return found;
    };
    const everywhere = sorts.map(() => true);
    const nowhere = sorts.map(() => false);
    expect(await finds(oldCompany.toUpperCase())).toEqual(everywhere);
    // A listed lead is the very object create answered (every field, timestamps to the millisecond).
    const listed = await viaRest(getLeadsTool, auth, { site_id: mine.siteId, search: mailbox });
    expect(listed.body.leads).toEqual([lead]);
    expect(await finds(`${mailbox.toUpperCase()}@EXAMPLE`)).toEqual(everywhere);
    const update = (fields: Record<string, unknown>) => viaRest(updateLeadTool, auth, { site_id: mine.siteId, lead_id: lead.id, ...fields });
    expect((await update({ name: `Quentin ${newName}`, company: `${newCompany} Ltd`, email: `${mailbox}.new@example.com` })).status).toBe(200);
    expect(await finds(oldCompany)).toEqual(nowhere);
    expect(await finds(oldName.toLowerCase())).toEqual(nowhere);
    expect(await finds(newCompany.toLowerCase())).toEqual(everywhere);
    expect(await finds(`quentin ${newName}`)).toEqual(everywhere);
    expect(await finds(`${mailbox}.NEW@`)).toEqual(everywhere);
    // Name, email and company are searched apart: a match never spans two of them.
    expect(await finds(`${newName} ${mailbox}`)).toEqual(nowhere);
    expect((await update({ company: null })).status).toBe(200);
    expect(await finds(newCompany)).toEqual(nowhere);
  });

  it('answers 409 when the new email belongs to another lead of the site', async () => {
    const a = await newLead(mine);
    const b = await newLead(mine);
    const res = await viaRest(updateLeadTool, auth, { site_id: mine.siteId, lead_id: b.id, email: a.email });
    expect(res.status).toBe(409);
    expect((await findLead(mine.siteId, b.id))?.email).toBe(b.email);
  });

  it('qualify sets the status', async () => {
    const lead = await newLead(mine);
    for (const status of ['contacted', 'qualified', 'converted', 'lost', 'new']) {
      const res = await viaRest(qualifyLeadTool, auth, { site_id: mine.siteId, lead_id: lead.id, status });
      expect(res.status).toBe(200);
      expect(res.body.lead.status).toBe(status);
    }
  });

  it("answers 404 for another site's lead or an unknown id, and changes nothing", async () => {
    const foreign = await newLead(other);
    for (const leadId of [foreign.id, randomUUID()]) {
      const update = await viaRest(updateLeadTool, auth, { site_id: mine.siteId, lead_id: leadId, name: 'Hijacked' });
      expect(update.status).toBe(404);
      expect(update.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Lead not found' });
      const qualify = await viaRest(qualifyLeadTool, auth, { site_id: mine.siteId, lead_id: leadId, status: 'lost' });
      expect(qualify.status).toBe(404);
    }
    expect(await findLead(other.siteId, foreign.id)).toMatchObject({ name: foreign.name, status: 'new' });
  });
});

describe('leads/identify', () => {
  it('links a visitor to a lead by id or email and returns the linked lead afterwards', async () => {
    const visitor = await createVisitor(mine);
    const first = await newLead(mine);
    const linked = await viaRest(identifyLeadTool, auth, { site_id: mine.siteId, visitor_id: visitor, lead_id: first.id });
    expect(linked.status).toBe(200);
    expect(linked.body).toEqual({ success: true, lead: first, visitor_id: visitor });
    const read = await viaRest(identifyLeadTool, auth, { site_id: mine.siteId, visitor_id: visitor });
    expect(read.body.lead.id).toBe(first.id);

    const second = await newLead(mine);
    const relinked = await viaRest(identifyLeadTool, auth, { site_id: mine.siteId, visitor_id: visitor, email: second.email.toUpperCase() });
    expect(relinked.body.lead.id).toBe(second.id);
    expect((await viaRest(identifyLeadTool, auth, { site_id: mine.siteId, visitor_id: visitor })).body.lead.id).toBe(second.id);
  });

  it("answers 404 for an unknown or unlinked visitor, another site's lead, or another site's visitor", async () => {
    const unknown = await viaRest(identifyLeadTool, auth, { site_id: mine.siteId, visitor_id: randomUUID(), lead_id: (await newLead(mine)).id });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('Visitor not found');
    const unlinked = await viaRest(identifyLeadTool, auth, { site_id: mine.siteId, visitor_id: await createVisitor(mine) });
    expect(unlinked.status).toBe(404);
    const foreign = await newLead(other);
    const byId = await viaRest(identifyLeadTool, auth, { site_id: mine.siteId, visitor_id: await createVisitor(mine), lead_id: foreign.id });
    expect(byId.status).toBe(404);
    const byEmail = await viaRest(identifyLeadTool, auth, { site_id: mine.siteId, visitor_id: await createVisitor(mine), email: foreign.email });
    expect(byEmail.status).toBe(404);
    const theirVisitor = await createVisitor(other);
    const linkedThere = await viaRest(identifyLeadTool, presenters.bearer(other.key), {
      site_id: other.siteId,
      visitor_id: theirVisitor,
      lead_id: foreign.id,
    });
    expect(linkedThere.status).toBe(200);
    expect((await viaRest(identifyLeadTool, auth, { site_id: mine.siteId, visitor_id: theirVisitor })).status).toBe(404);
  });

  it('sets the same link the visitor-session routes read', async () => {
    const visitor = await createVisitor(mine);
    const lead = await newLead(mine);
    await viaRest(identifyLeadTool, auth, { site_id: mine.siteId, visitor_id: visitor, lead_id: lead.id });
    expect((await findVisitor(mine.siteId, visitor))?.leadId).toBe(lead.id);
  });
});
