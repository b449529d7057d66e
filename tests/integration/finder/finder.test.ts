import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GET as autocompleteRoute } from '@/app/api/finder/autocomplete/[category]/route';
import { GET as creditsRoute } from '@/app/api/finder/credits/route';
import { POST as icpRoute } from '@/app/api/finder/icp/route';
import { POST as contactsRoute } from '@/app/api/finder/person_contacts_lookup/route';
import { POST as searchRoute } from '@/app/api/finder/person_role_search/route';
import { POST as totalsRoute } from '@/app/api/finder/person_role_search/totals/route';
import { overrideProviders } from '@/lib/core/providers';
import { grantCredits } from '@/lib/finder/credits-repo';
import { queryHash } from '@/lib/finder/query-hash';
import { createSegment } from '@/lib/segments/repo';
import { analyzeICPTotalCountTool, searchRegionVenuesTool } from '@/lib/tools/finder';
import type { WorkflowEngine } from '@/lib/workflows/engine';
import { presenters } from '@/tests/helpers/auth-matrix';
import { setEnv } from '@/tests/helpers/env';
import { createRoleQuery } from '@/tests/helpers/finder';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { PAGE_SIZE, standInPerson, startPeopleDataStandIn, startVenuesStandIn, type PeopleDataStandIn } from '@/tests/helpers/people-data-standin';
import { startMcp, viaMcp, viaRest } from '@/tests/helpers/tools';

const KEY = 'finder-provider-key';
let standIn: PeopleDataStandIn;
let mine: Tenant;
let other: Tenant;

const auth = (t: Tenant) => presenters.bearer(t.key);
const search = (t: Tenant, body: Record<string, unknown>) =>
  call(searchRoute, { method: 'POST', path: '/api/finder/person_role_search', headers: auth(t), body: { site_id: t.siteId, ...body } });
const totals = (t: Tenant, body: Record<string, unknown>) =>
  call(totalsRoute, { method: 'POST', path: '/api/finder/person_role_search/totals', headers: auth(t), body: { site_id: t.siteId, ...body } });
const credits = (t: Tenant, limit?: number) =>
  call(creditsRoute, { path: '/api/finder/credits', headers: auth(t), query: { site_id: t.siteId, limit } });
const balanceOf = async (t: Tenant) => (await credits(t)).body.data.balance as number;

beforeAll(async () => {
  standIn = await startPeopleDataStandIn(KEY);
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
});
afterAll(async () => {
  setEnv({
    PEOPLE_DATA_BASE_URL: undefined,
    PEOPLE_DATA_API_KEY: undefined,
    VENUES_API_URL: undefined,
    VENUES_API_KEY: undefined,
    FINDER_MONTHLY_CAP: undefined,
  });
  await standIn?.close();
});

describe('without a people-data provider', () => {
  beforeAll(() => setEnv({ PEOPLE_DATA_BASE_URL: undefined, PEOPLE_DATA_API_URL: undefined }));

  it('answers 503 PROVIDER_NOT_CONFIGURED and charges nothing', async () => {
    await grantCredits(mine.siteId, 10);
    const before = await balanceOf(mine);
    const res = await search(mine, { role_title: 'sales' });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      success: false,
      error: { code: 'PROVIDER_NOT_CONFIGURED', message: expect.stringContaining('PEOPLE_DATA_BASE_URL') },
    });
    expect(await balanceOf(mine)).toBe(before);
  });
});

describe('with the provider configured (local Forager-like stand-in)', () => {
  beforeAll(() => setEnv({ PEOPLE_DATA_BASE_URL: standIn.url, PEOPLE_DATA_API_KEY: KEY }));

  it('passes the search parameters through and answers one page of people, for 1 credit', async () => {
    await grantCredits(mine.siteId, 50);
    const before = await balanceOf(mine);
    const params = {
      role_title: 'head of sales',
      person_locations: [2514256],
      organization_industries: ['ind_4'],
      nested: { any: { shape: [1, 'a', null] } },
    };
    const res = await search(mine, { ...params, page: 2 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // What went out: the parameters as sent, with the page, and neither our site id nor our key.
    expect(standIn.calls.at(-1)).toEqual({ method: 'POST', path: '/person_role_search/', body: { ...params, page: 2 } });
    const expected = standIn.matching('head of sales').slice(PAGE_SIZE, 2 * PAGE_SIZE);
    expect(res.body.data.people.map((p: { person_id: string }) => p.person_id)).toEqual(expected.map((p) => p.id));
    expect(res.body.data.people[0]).toEqual({
      person_id: expected[0].id,
      role_id: `r${expected[0].n}`,
      full_name: `${expected[0].first} ${expected[0].last}`,
      first_name: expected[0].first,
      last_name: expected[0].last,
      role_title: 'Head of Sales',
      headline: `Head of Sales at Org ${expected[0].org}`,
      location: 'Madrid, Spain',
      linkedin_url: `https://www.linkedin.com/in/${expected[0].id}`,
      email: null,
      company: {
        id: `o${expected[0].org}`,
        name: `Org ${expected[0].org}`,
        domain: `org${expected[0].org}.example`,
        website: `https://org${expected[0].org}.example`,
      },
    });
    expect(res.body.data).toMatchObject({ page: 2, total: standIn.matching('head of sales').length, credits: { charged: 1, balance: before - 1 } });
    expect(await balanceOf(mine)).toBe(before - 1);
    const ledger = (await credits(mine, 1)).body.data.ledger;
    expect(ledger[0]).toMatchObject({ kind: 'charge', call_type: 'person_role_search', amount: -1, balance_after: before - 1, refund_of: null });
  });

  it('counts the matching people (totals) for 1 credit', async () => {
    const before = await balanceOf(mine);
    const res = await totals(mine, { role_title: 'engineer' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ total: standIn.matching('engineer').length, credits: { charged: 1, balance: before - 1 } });
    expect(standIn.calls.at(-1)).toEqual({ method: 'POST', path: '/person_role_search/totals/', body: { role_title: 'engineer' } });
  });

  it.each([
    ['a parameter name that is not snake_case', { 'Role-Title': 'x' }],
    ['a string over 1,000 characters', { role_title: 'x'.repeat(1001) }],
    ['an array over 200 items', { person_locations: Array.from({ length: 201 }, (_, i) => i) }],
    ['nesting deeper than 5 levels', { a: { b: { c: { d: { e: { f: 1 } } } } } }],
    ['more than 16 KiB of parameters', Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${i}`, 'x'.repeat(500)]))],
    ['page 0', { role_title: 'x', page: 0 }],
  ])('refuses %s with 400 INVALID_REQUEST, before any provider call or charge', async (_label, body) => {
    const before = { balance: await balanceOf(mine), calls: standIn.calls.length };
    const res = await search(mine, body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
    expect({ balance: await balanceOf(mine), calls: standIn.calls.length }).toEqual(before);
  });

  it('refunds a call the provider failed, and answers 502 PROVIDER_ERROR without the provider’s internals', async () => {
    const before = await balanceOf(mine);
    const res = await search(mine, { role_title: 'explode' });
    expect(res.status).toBe(502);
    expect(res.body.error).toMatchObject({
      code: 'PROVIDER_ERROR',
      message: 'The people-data provider answered 500',
      details: { provider_status: 500 },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/stack|search\.py/);
    expect(await balanceOf(mine)).toBe(before);
    const [refund, charge] = (await credits(mine, 2)).body.data.ledger;
    expect(charge).toMatchObject({ kind: 'charge', amount: -1 });
    expect(refund).toMatchObject({
      kind: 'refund',
      amount: 1,
      refund_of: charge.id,
      balance_after: before,
      note: expect.stringContaining('PROVIDER_ERROR'),
    });
  });

  it('passes the provider’s 429 on with its Retry-After, refunded', async () => {
    const before = await balanceOf(mine);
    standIn.failNext({ status: 429, headers: { 'retry-after': '7' } });
    const res = await search(mine, { role_title: 'sales' });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { retry_after: 7, source: 'provider' } });
    expect(await balanceOf(mine)).toBe(before);
  });

  it('maps a refused provider key to 502 without the provider’s message', async () => {
    setEnv({ PEOPLE_DATA_API_KEY: 'wrong' });
    try {
      const res = await totals(mine, { role_title: 'sales' });
      expect(res.status).toBe(502);
      expect(res.body.error.details).toEqual({ provider_status: 401 });
      expect(JSON.stringify(res.body)).not.toContain('account 1234');
    } finally {
      setEnv({ PEOPLE_DATA_API_KEY: KEY });
    }
  });

  it('answers 402 INSUFFICIENT_CREDITS before any provider call when the balance is short', async () => {
    const poor = await createTenant();
    const calls = standIn.calls.length;
    const res = await search(poor, { role_title: 'sales' });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({
      success: false,
      error: {
        code: 'INSUFFICIENT_CREDITS',
        message: expect.stringContaining('balance is 0'),
        details: { reason: 'balance', required: 1, balance: 0, monthly_cap: 10_000, spent_this_month: 0 },
        request_id: expect.any(String),
      },
    });
    expect(standIn.calls.length).toBe(calls);
    const lookup = await call(contactsRoute, {
      method: 'POST',
      path: '/api/finder/person_contacts_lookup',
      headers: auth(poor),
      body: { site_id: poor.siteId, person_id: 'p1', type: 'phone_numbers' },
    });
    expect(lookup.status).toBe(402);
    expect(standIn.calls.length).toBe(calls);
  });

  it("stops at the site's monthly cap (402, reason monthly_cap) and counts refunds back", async () => {
    const capped = await createTenant();
    await grantCredits(capped.siteId, 100, { monthlyCap: 3 });
    for (let i = 0; i < 3; i++) expect((await totals(capped, { role_title: 'sales' })).status).toBe(200);
    const res = await totals(capped, { role_title: 'sales' });
    expect(res.status).toBe(402);
    expect(res.body.error.details).toMatchObject({ reason: 'monthly_cap', monthly_cap: 3, spent_this_month: 3, balance: 97 });
    const view = (await credits(capped)).body.data;
    expect(view).toMatchObject({ balance: 97, monthly_cap: 3, spent_this_month: 3, remaining_this_month: 0 });
    // A new month starts from zero.
    const nextMonth = new Date();
    nextMonth.setUTCMonth(nextMonth.getUTCMonth() + 1, 1);
    const restore = overrideProviders({ clock: { now: () => nextMonth.getTime() } });
    try {
      expect((await totals(capped, { role_title: 'sales' })).status).toBe(200);
      expect((await credits(capped)).body.data).toMatchObject({ balance: 96, spent_this_month: 1, month: nextMonth.toISOString().slice(0, 7) });
    } finally {
      restore();
    }
  });

  it('concurrent calls cannot overspend: 5 credits, 20 calls at once → exactly 5 answered', async () => {
    const racer = await createTenant();
    await grantCredits(racer.siteId, 5);
    const results = await Promise.all(Array.from({ length: 20 }, () => totals(racer, { role_title: 'sales' })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 402)).toHaveLength(15);
    const view = (await credits(racer, 100)).body.data;
    expect(view.balance).toBe(0);
    expect(view.ledger.filter((e: { kind: string }) => e.kind === 'charge')).toHaveLength(5);
    // Every ledger balance is one the account really had: 0…4, each once.
    expect(
      view.ledger
        .filter((e: { kind: string }) => e.kind === 'charge')
        .map((e: { balance_after: number }) => e.balance_after)
        .sort(),
    ).toEqual([0, 1, 2, 3, 4]);
  });

  it('looks up emails, phone numbers and details of a person at their prices', async () => {
    await grantCredits(mine.siteId, 20);
    const lookup = (type: string) =>
      call(contactsRoute, {
        method: 'POST',
        path: '/api/finder/person_contacts_lookup',
        headers: auth(mine),
        body: { site_id: mine.siteId, person_id: 'p3', type },
      });
    const work = await lookup('work_emails');
    expect(work.status).toBe(200);
    expect(work.body.data).toMatchObject({
      person_id: 'p3',
      type: 'work_emails',
      contacts: [{ value: standInPerson(3).workEmail, kind: 'work_email', status: 'valid' }],
      details: null,
      credits: { charged: 2 },
    });
    const phones = await lookup('phone_numbers');
    expect(phones.body.data).toMatchObject({ contacts: [{ value: '+34600000003', kind: 'phone', status: 'mobile' }], credits: { charged: 5 } });
    const personal = await lookup('personal_emails');
    expect(personal.body.data.contacts[0]).toMatchObject({ kind: 'personal_email' });
    const details = await lookup('details');
    expect(details.body.data).toMatchObject({
      contacts: [],
      details: { person_id: 'p3', full_name: `${standInPerson(3).first} ${standInPerson(3).last}` },
      credits: { charged: 1 },
    });
    expect((await lookup('fax')).status).toBe(400);
  });

  it('autocompletes a filter for free and searches organizations (icp)', async () => {
    const before = await balanceOf(mine);
    const autocomplete = (category: string, path: string) =>
      call(autocompleteRoute, {
        path: `/api/finder/autocomplete/${path}`,
        params: { category },
        headers: auth(mine),
        query: { site_id: mine.siteId, q: 'soft' },
      });
    const auto = await autocomplete('industry', 'industry');
    expect(auto.status).toBe(200);
    expect(auto.body.data).toEqual({ category: 'industry', results: [{ id: 'ind_4', text: 'Computer Software' }], page: 1, has_more: false });
    expect(await balanceOf(mine)).toBe(before);
    const bad = await autocomplete('../x', '..');
    expect(bad.status).toBe(400);
    const icp = await call(icpRoute, {
      method: 'POST',
      path: '/api/finder/icp',
      headers: auth(mine),
      body: { site_id: mine.siteId, organization_industries: ['ind_4'] },
    });
    expect(icp.status).toBe(200);
    expect(icp.body.data.organizations).toHaveLength(10);
    expect(icp.body.data.organizations[0]).toEqual({
      id: 'o0',
      name: 'Org 0',
      domain: 'org0.example',
      website: 'https://org0.example',
      industry: 'Computer Software',
      employees: 10,
      location: 'Madrid, Spain',
    });
    expect(icp.body.data.credits.charged).toBe(1);
  });

  it('analyzeICPTotalCount answers alike through REST and MCP', async () => {
    const mcp = await startMcp();
    try {
      const client: Client = await mcp.connect(auth(mine));
      const rest = await viaRest(analyzeICPTotalCountTool, auth(mine), { site_id: mine.siteId, query: { role_title: 'sales' } });
      expect(rest.status).toBe(200);
      expect(rest.body).toMatchObject({ success: true, total: standIn.matching('sales').length, credits: { charged: 1 } });
      const viaProtocol = await viaMcp(client, 'analyzeICPTotalCount', { site_id: mine.siteId, query: { role_title: 'sales' } });
      expect(viaProtocol.status).toBe('ok');
      expect(viaProtocol.body.total).toBe(rest.body.total);
    } finally {
      await mcp.close();
    }
  });
});

describe('GET /api/finder/credits', () => {
  it("shows only the caller's site", async () => {
    const fresh = await createTenant();
    await grantCredits(fresh.siteId, 42, { note: 'welcome' });
    const res = await credits(fresh);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      balance: 42,
      monthly_cap: 10_000,
      spent_this_month: 0,
      remaining_this_month: 42,
      prices: { person_role_search: 1, phone_numbers: 5 },
    });
    expect(res.body.data.ledger).toEqual([expect.objectContaining({ kind: 'grant', amount: 42, balance_after: 42, note: 'welcome' })]);
    const foreign = await call(creditsRoute, { path: '/api/finder/credits', headers: auth(fresh), query: { site_id: other.siteId } });
    expect(foreign.status).toBe(403);
  });
});

describe('createQuery', () => {
  // Runs are started but not executed here (tests/integration/finder/mining.test.ts runs them).
  const started: string[] = [];
  let restore: () => void;
  beforeAll(() => {
    setEnv({ PEOPLE_DATA_BASE_URL: standIn.url, PEOPLE_DATA_API_KEY: KEY });
    const engine = {
      startWithinCap: async (o: { workflowId: string }) => (
        started.push(o.workflowId),
        { workflowId: o.workflowId, runId: `run-${started.length}`, created: true }
      ),
    } as unknown as WorkflowEngine;
    restore = overrideProviders({ workflowEngine: engine });
  });
  afterAll(() => restore?.());
  beforeEach(() => void (started.length = 0));

  it('creates a role query, links the segment and starts a mining run (201)', async () => {
    const segment = await createSegment(mine.siteId, { site_id: mine.siteId, name: 'Sales heads' });
    const res = await createRoleQuery(mine, {
      name: 'Sales heads in Madrid',
      total_targets: 25,
      segment_id: segment.segment_id,
      query: { role_title: 'Head of Sales', person_locations: [2514256] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { role_query, created, run_ids, runs } = res.body.data;
    expect(created).toBe(true);
    expect(run_ids).toEqual(started);
    expect(run_ids[0]).toMatch(new RegExp(`^ideal-client-profile-mining-${mine.siteId}-\\d+-[0-9a-f]{8}$`));
    expect(runs).toEqual([{ workflowId: run_ids[0], runId: 'run-1' }]);
    expect(role_query).toMatchObject({
      site_id: mine.siteId,
      name: 'Sales heads in Madrid',
      total_targets: 25,
      leads_created: 0,
      status: 'pending',
      segment_ids: [segment.segment_id],
      query_hash: queryHash({ role_title: 'Head of Sales', person_locations: [2514256] }),
    });
  });

  it('deduplicates by the normalised query within the site, never across sites', async () => {
    const first = await createRoleQuery(mine, {
      name: 'Engineers',
      total_targets: 5,
      query: { role_title: 'Software Engineer', person_skills: ['go', 'rust'] },
    });
    expect(first.status).toBe(201);
    const again = await createRoleQuery(mine, {
      name: 'Engineers (renamed)',
      total_targets: 8,
      query: { person_skills: ['Rust', ' go '], role_title: '  software engineer', empty: [] },
    });
    expect(again.status).toBe(200);
    expect(again.body.data.created).toBe(false);
    expect(again.body.data.role_query).toMatchObject({ id: first.body.data.role_query.id, name: 'Engineers (renamed)', total_targets: 8 });
    expect(started).toHaveLength(2);
    const elsewhere = await createRoleQuery(other, {
      name: 'Engineers',
      total_targets: 5,
      query: { role_title: 'Software Engineer', person_skills: ['go', 'rust'] },
    });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.data.role_query.id).not.toBe(first.body.data.role_query.id);
    expect(elsewhere.body.data.role_query.query_hash).toBe(first.body.data.role_query.query_hash);
  });

  it("answers 404 for another site's segment, writing nothing", async () => {
    const theirs = await createSegment(other.siteId, { site_id: other.siteId, name: 'Theirs' });
    const query = { role_title: `sales ${Date.now()}` };
    const res = await createRoleQuery(mine, { name: 'Sneaky', total_targets: 5, segment_id: theirs.segment_id, query });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect(started).toHaveLength(0);
    // The same query without the foreign segment is new: nothing was saved by the refused call.
    expect((await createRoleQuery(mine, { name: 'Honest', total_targets: 5, query })).status).toBe(201);
  });

  it.each([
    ['missing name', { total_targets: 5, query: { role_title: 'x' } }],
    ['total_targets 0', { name: 'x', total_targets: 0, query: { role_title: 'x' } }],
    ['total_targets not an integer', { name: 'x', total_targets: 2.5, query: { role_title: 'x' } }],
    ['an empty query', { name: 'x', total_targets: 5, query: {} }],
    ['a query that is not an object', { name: 'x', total_targets: 5, query: 'sales' }],
    ['an unknown field', { name: 'x', total_targets: 5, query: { role_title: 'x' }, extra: 1 }],
  ])('refuses %s (400)', async (_label, body) => {
    const res = await createRoleQuery(mine, body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
    expect(started).toHaveLength(0);
  });
});

describe('searchRegionVenues', () => {
  it('answers 503 PROVIDER_NOT_CONFIGURED without a venue provider, then finds venues through it', async () => {
    setEnv({ VENUES_API_URL: undefined });
    const body = { site_id: mine.siteId, region: 'Madrid, Spain', query: 'coworking', limit: 2 };
    const missing = await viaRest(searchRegionVenuesTool, auth(mine), body);
    expect(missing.status).toBe(503);
    expect(missing.body.error).toMatchObject({ code: 'PROVIDER_NOT_CONFIGURED', message: expect.stringContaining('VENUES_API_URL') });
    const venues = await startVenuesStandIn('venues-key');
    try {
      setEnv({ VENUES_API_URL: venues.url, VENUES_API_KEY: 'venues-key' });
      await grantCredits(mine.siteId, 5);
      const res = await viaRest(searchRegionVenuesTool, auth(mine), body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ success: true, region: 'Madrid, Spain', query: 'coworking', credits: { charged: 1 } });
      expect(res.body.venues).toHaveLength(2);
      expect(res.body.venues[0]).toMatchObject({ id: 'v1', name: 'coworking 1', address: 'Calle 1, Madrid, Spain' });
      expect(venues.requests.at(-1)).toBe('/venues/search?region=Madrid%2C+Spain&query=coworking&limit=2');
    } finally {
      setEnv({ VENUES_API_URL: undefined, VENUES_API_KEY: undefined });
      await venues.close();
    }
  });
});
