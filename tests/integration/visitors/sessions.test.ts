import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as leadSessions } from '@/app/api/leads/[lead_id]/sessions/route';
import { GET as visitorSessions } from '@/app/api/visitors/[visitor_id]/sessions/route';
import { POST as identifyRoute } from '@/app/api/visitors/identify/route';
import { POST as segmentRoute } from '@/app/api/visitors/segment/route';
import { POST as endByPath } from '@/app/api/visitors/session/[session_id]/end/route';
import { POST as identifySessionRoute } from '@/app/api/visitors/session/[session_id]/identify/route';
import { POST as endByBody } from '@/app/api/visitors/session/end/route';
import { GET as getSession, OPTIONS as sessionPreflight, POST as createRoute, PUT as updateRoute } from '@/app/api/visitors/session/route';
import { GET as visitorSites } from '@/app/api/visitors/sites/route';
import { POST as trackRoute } from '@/app/api/visitors/track/route';
import { GET as getStats } from '@/app/sites/[site_id]/stats/route';
import { getDb } from '@/lib/db/client';
import { upsertLeadByEmail } from '@/lib/leads/repo';
import { authMatrix, presenters } from '@/tests/helpers/auth-matrix';
import { testClock } from '@/tests/helpers/clock';
import { call, createSite, createTenant, type CallResult, type Tenant } from '@/tests/helpers/harness';

let mine: Tenant;
let other: Tenant;
beforeAll(async () => {
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
});
const tenants = () => ({ mine, other });
const useClock = testClock();

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const MIN = 60_000;

const key = (t: Tenant = mine) => presenters.xSaApiKey(t.key);
const fp = () => `fp-${Math.random().toString(36).slice(2)}`;

async function start(body: Record<string, unknown> = {}, t: Tenant = mine, headers: Record<string, string> = key(t)) {
  return call(createRoute, { method: 'POST', path: '/api/visitors/session', headers, body: { site_id: t.siteId, ...body } });
}
async function read(sessionId: string, t: Tenant = mine) {
  return call(getSession, { path: '/api/visitors/session', headers: key(t), query: { session_id: sessionId, site_id: t.siteId } });
}
async function track(sessionId: string, body: Record<string, unknown> = {}, t: Tenant = mine, headers: Record<string, string> = key(t)) {
  return call(trackRoute, {
    method: 'POST',
    path: '/api/visitors/track',
    headers,
    body: { site_id: t.siteId, session_id: sessionId, event_type: 'pageview', url: 'https://shop.example.com/', ...body },
  });
}

/** The shared auth cases of a route that acts on a session: each request gets a fresh session of the site it names. */
function sessionAuthMatrix(write: boolean, send: (headers: Record<string, string>, siteId: string, sessionId: string) => Promise<CallResult>) {
  authMatrix({
    tenants,
    present: presenters.xSaApiKey,
    write,
    send: async (headers, siteId) => {
      const s = (await start({}, siteId === mine.siteId ? mine : other)).body.data;
      return send(headers, siteId, s.session_id);
    },
  });
}

async function endSession(sessionId: string, body: Record<string, unknown> = {}) {
  return call(endByPath, { method: 'POST', path: `/api/visitors/session/${sessionId}/end`, params: { session_id: sessionId }, headers: key(), body });
}

function expectSessionNotFound(res: { status: number; body: any }, sessionId: string, siteId: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(404);
  expect(res.body).toEqual({
    success: false,
    error: {
      code: 'session_not_found',
      message: expect.any(String),
      details: { session_id: sessionId, site_id: siteId },
      request_id: expect.any(String),
    },
  });
}

describe('POST /api/visitors/session', () => {
  authMatrix({
    tenants,
    present: presenters.xSaApiKey,
    write: true,
    send: (headers, siteId) => call(createRoute, { method: 'POST', path: '/api/visitors/session', headers, body: { site_id: siteId } }),
  });

  it('creates a session with the §2.4 response fields and session meta', async () => {
    useClock(T0);
    const res = await start({
      fingerprint: fp(),
      url: 'https://shop.example.com/?utm_source=x',
      utm_source: 'news',
      referrer: 'https://google.com/',
    });
    expect(res.status).toBe(201);
    const d = res.body.data;
    expect(d).toMatchObject({
      session_id: expect.any(String),
      visitor_id: expect.any(String),
      site_id: mine.siteId,
      created_at: T0,
      expires_at: T0 + 30 * MIN,
      ttl: 1800,
      is_new_session: true,
      previous_session_id: null,
      session_url: `/api/visitors/session?session_id=${d.session_id}&site_id=${mine.siteId}`,
    });
    expect(d).not.toHaveProperty('last_activity_at');
    expect(res.body.meta).toEqual({ api_version: '1.0', server_time: T0, processing_time: expect.any(Number) });
    const got = await read(d.session_id);
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({
      session_id: d.session_id,
      utm_source: 'news',
      referrer: 'https://google.com/',
      started_at: T0,
      events: [],
      status: 'active',
    });
  });

  it('reuses the active session of a fingerprint (is_new_session false, fresh last_activity_at, renewed expiry)', async () => {
    const f = fp();
    useClock(T0);
    const first = (await start({ fingerprint: f })).body.data;
    useClock(T0 + 10 * MIN);
    const again = await start({ fingerprint: f });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({
      session_id: first.session_id,
      visitor_id: first.visitor_id,
      is_new_session: false,
      last_activity_at: T0 + 10 * MIN,
      expires_at: T0 + 40 * MIN,
    });
  });

  it('concurrent starts for one fingerprint yield one session', async () => {
    const f = fp();
    const results = await Promise.all(Array.from({ length: 8 }, () => start({ fingerprint: f })));
    expect(new Set(results.map((r) => r.body.data.session_id)).size).toBe(1);
    expect(results.filter((r) => r.body.data.is_new_session)).toHaveLength(1);
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
  });

  it('gives each of many concurrent starts its own right answer: new, returning, repeated and fingerprint-less visitors', async () => {
    const returning = fp();
    const expired = fp();
    const fresh = fp();
    useClock(T0);
    const old = (await start({ fingerprint: expired })).body.data;
    useClock(T0 + 31 * MIN);
    const live = (await start({ fingerprint: returning })).body.data;
    const lead = await upsertLeadByEmail(mine.siteId, { email: `${fresh}@example.com`, name: 'Batch lead', origin: 'test' });
    const results = await Promise.all([
      start({ fingerprint: fresh }),
      start({ fingerprint: returning }),
      start({}),
      start({ fingerprint: expired }),
      start({ fingerprint: fresh, lead_id: lead.id }),
      start({}),
      start({ fingerprint: returning }),
    ]);
    const data = results.map((r) => r.body.data);
    // The new fingerprint: one session, started by one of its two starts and reused by the other.
    expect([results[0].status, results[4].status].sort()).toEqual([200, 201]);
    expect(data[4]).toMatchObject({ session_id: data[0].session_id, visitor_id: data[0].visitor_id });
    expect([data[0].is_new_session, data[4].is_new_session].sort()).toEqual([false, true]);
    // The returning visitor's live session is renewed by both of its starts.
    expect([results[1].status, results[6].status]).toEqual([200, 200]);
    expect([data[1].session_id, data[6].session_id]).toEqual([live.session_id, live.session_id]);
    // The expired one gets a new session chained to the old, same visitor.
    expect(results[3].status).toBe(201);
    expect(data[3]).toMatchObject({ visitor_id: old.visitor_id, previous_session_id: old.session_id, is_new_session: true });
    // Without a fingerprint every start is a visitor of its own.
    expect([results[2].status, results[5].status]).toEqual([201, 201]);
    expect(new Set([data[2].visitor_id, data[5].visitor_id, data[0].visitor_id, live.visitor_id]).size).toBe(4);
    // Whichever came first, the start with a lead bound it to the session.
    const db = await getDb();
    const stored = await db.execute(sql`select lead_id from visitor_sessions where id = ${data[0].session_id}`);
    expect((stored as unknown as { rows: { lead_id: string }[] }).rows[0].lead_id).toBe(lead.id);
  });

  it('never reuses a session across sites, even for the same fingerprint', async () => {
    const f = fp();
    const a = (await start({ fingerprint: f })).body.data;
    const b = await start({ fingerprint: f }, other);
    expect(b.status).toBe(201);
    expect(b.body.data.session_id).not.toBe(a.session_id);
    expect(b.body.data.visitor_id).not.toBe(a.visitor_id);
    // Another site's key cannot read it.
    expectSessionNotFound(await read(a.session_id, other), a.session_id, other.siteId);
  });

  it('expires after 30 idle minutes; the returning fingerprint gets a new session chained to it, same visitor', async () => {
    const f = fp();
    useClock(T0);
    const first = (await start({ fingerprint: f })).body.data;
    useClock(T0 + 30 * MIN);
    expectSessionNotFound(await read(first.session_id), first.session_id, mine.siteId);
    const next = await start({ fingerprint: f });
    expect(next.status).toBe(201);
    expect(next.body.data).toMatchObject({ is_new_session: true, visitor_id: first.visitor_id, previous_session_id: first.session_id });
    // History keeps the expired one: no page seen, so a bounce.
    const list = await call(visitorSessions, {
      path: `/api/visitors/${first.visitor_id}/sessions`,
      params: { visitor_id: first.visitor_id },
      headers: key(),
    });
    expect(list.body.data.map((s: any) => [s.session_id, s.status, s.exit_type])).toEqual([
      [next.body.data.session_id, 'active', null],
      [first.session_id, 'expired', 'bounce'],
    ]);
  });

  it('keeps a session alive while activity renews it, but never past 24 hours', async () => {
    useClock(T0);
    const s = (await start({ fingerprint: fp() })).body.data;
    for (let t = 25; t < 24 * 60; t += 25) {
      useClock(T0 + t * MIN);
      const res = await call(updateRoute, {
        method: 'PUT',
        path: '/api/visitors/session',
        headers: key(),
        body: { site_id: mine.siteId, session_id: s.session_id },
      });
      expect(res.status, `at ${t} min`).toBe(200);
      expect(res.body.data.expires_at).toBe(Math.min(T0 + (t + 30) * MIN, T0 + 24 * 60 * MIN));
    }
    useClock(T0 + 24 * 60 * MIN);
    expectSessionNotFound(await read(s.session_id), s.session_id, mine.siteId);
  });

  it('a closed session stays readable; the returning fingerprint gets a new chained session', async () => {
    const f = fp();
    useClock(T0);
    const s = (await start({ fingerprint: f })).body.data;
    useClock(T0 + 5 * MIN);
    const end = await endSession(s.session_id, { exit_url: 'https://shop.example.com/bye', exit_type: 'exit', page_views: 3 });
    expect(end.status).toBe(200);
    expect(end.body.data).toMatchObject({
      status: 'closed',
      ended_at: T0 + 5 * MIN,
      exit_type: 'exit',
      exit_url: 'https://shop.example.com/bye',
      duration: 5 * MIN,
      page_views: 3,
    });
    useClock(T0 + 60 * MIN);
    const got = await read(s.session_id);
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({ status: 'closed', ttl: 0 });
    // Closed sessions take no more activity.
    const put = await call(updateRoute, {
      method: 'PUT',
      path: '/api/visitors/session',
      headers: key(),
      body: { site_id: mine.siteId, session_id: s.session_id },
    });
    expect(put.status).toBe(409);
    expect(put.body.error.code).toBe('CONFLICT');
    expect((await track(s.session_id)).status).toBe(409);
    const next = (await start({ fingerprint: f })).body.data;
    expect(next).toMatchObject({ is_new_session: true, previous_session_id: s.session_id, visitor_id: s.visitor_id });
  });

  it('ends by body too, accepts a sendBeacon text/plain body, and ending twice is harmless', async () => {
    const s = (await start({ fingerprint: fp() })).body.data;
    const req = {
      method: 'POST',
      path: '/api/visitors/session/end',
      headers: { ...key(), 'content-type': 'text/plain;charset=UTF-8' },
      rawBody: JSON.stringify({ site_id: mine.siteId, session_id: s.session_id, exit_type: 'bounce' }),
    };
    const first = await call(endByBody, req);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ status: 'closed', exit_type: 'bounce' });
    const again = await call(endByBody, req);
    expect(again.body.data.ended_at).toBe(first.body.data.ended_at);
    const missing = '00000000-0000-4000-8000-000000000000';
    expectSessionNotFound(
      await call(endByBody, { ...req, rawBody: JSON.stringify({ site_id: mine.siteId, session_id: missing }) }),
      missing,
      mine.siteId,
    );
  });

  it.each([
    ['exit_type outside the enum', { exit_type: 'crash' }],
    ['started_at not a number', { started_at: 'yesterday' }],
    ['negative page_views', { page_views: -1 }],
    ['screen_size not WxH', { device: { screen_size: 'big' } }],
    ['consent flag not boolean', { consent: { analytics: 'no' } }],
    ['custom_data over 50 KB', { custom_data: { blob: 'x'.repeat(51 * 1024) } }],
    ['unknown field', { surprise: 1 }],
  ])('refuses %s with 400 and stores nothing', async (_why, body) => {
    const f = fp();
    const res = await start({ fingerprint: f, ...body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
    const db = await getDb();
    const found = await db.execute(sql`select count(*)::int as n from visitors where fingerprint = ${f}`);
    expect((found as any).rows[0].n).toBe(0);
  });

  it('accepts custom_data up to 50 KB', async () => {
    const res = await start({ fingerprint: fp(), custom_data: { blob: 'x'.repeat(50 * 1024 - 20) } });
    expect(res.status).toBe(201);
  });

  it('fills device, browser and location from headers when not sent, and flags bots', async () => {
    const ua = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
    const res = await start({ fingerprint: fp(), browser: { language: 'fr' } }, mine, {
      ...key(),
      'user-agent': ua,
      'accept-language': 'de-DE,de;q=0.9',
      'x-vercel-ip-country': 'de',
      'x-vercel-ip-city': 'M%C3%BCnchen',
    });
    const got = (await read(res.body.data.session_id)).body.data;
    expect(got.is_bot).toBe(false);
    expect(got.browser).toEqual({ name: 'Chrome', version: '124.0.0.0', language: 'fr' });
    expect(got.device).toEqual({ type: 'desktop', os: { name: 'Windows', version: '10.0' } });
    expect(got.location).toEqual({ country: 'DE', city: 'München' });
    const bot = await start({ fingerprint: fp() }, mine, {
      ...key(),
      'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    });
    expect(bot.body.data.is_bot).toBe(true);
  });

  it('with consent.analytics false keeps only the session itself', async () => {
    const res = await start(
      {
        fingerprint: fp(),
        url: 'https://shop.example.com/p',
        referrer: 'https://ref.example/',
        utm_source: 'ads',
        custom_data: { a: 1 },
        consent: { necessary: true, analytics: false },
      },
      mine,
      { ...key(), 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0' },
    );
    const got = (await read(res.body.data.session_id)).body.data;
    expect(got).toMatchObject({
      url: null,
      referrer: null,
      utm_source: null,
      custom_data: null,
      device: null,
      browser: null,
      location: null,
      consent: { necessary: true, analytics: false },
    });
  });

  it('accepts a browser call with no key from the site Origin, with CORS headers; refuses other origins', async () => {
    const user = mine.user;
    const siteId = await createSite(user, 'Shop', 'shop.example.com');
    const ok = await call(createRoute, {
      method: 'POST',
      path: '/api/visitors/session',
      headers: { origin: 'https://www.shop.example.com' },
      body: { site_id: siteId, fingerprint: fp() },
    });
    expect(ok.status).toBe(201);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://www.shop.example.com');
    const evil = await call(createRoute, {
      method: 'POST',
      path: '/api/visitors/session',
      headers: { origin: 'https://evil.example' },
      body: { site_id: siteId },
    });
    expect(evil.status).toBe(401);
    const pre = await sessionPreflight(
      new Request('http://localhost/api/visitors/session', { method: 'OPTIONS', headers: { origin: 'https://shop.example.com' } }),
    );
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('refuses a lead_id of another site (404)', async () => {
    const lead = await upsertLeadByEmail(other.siteId, { email: `x-${fp()}@example.com`, name: 'X' });
    const res = await start({ fingerprint: fp(), lead_id: lead.id });
    expect(res.status).toBe(404);
  });
});

describe('GET /api/visitors/session', () => {
  sessionAuthMatrix(false, (headers, siteId, sessionId) =>
    call(getSession, { path: '/api/visitors/session', headers, query: { session_id: sessionId, site_id: siteId } }),
  );

  it('is 404 session_not_found for an unknown id and 400 for a malformed one', async () => {
    const id = '00000000-0000-4000-8000-000000000001';
    expectSessionNotFound(await read(id), id, mine.siteId);
    const bad = await call(getSession, { path: '/api/visitors/session', headers: key(), query: { session_id: 'nope', site_id: mine.siteId } });
    expect(bad.status).toBe(400);
  });
});

describe('PUT /api/visitors/session', () => {
  sessionAuthMatrix(true, (headers, siteId, sessionId) =>
    call(updateRoute, { method: 'PUT', path: '/api/visitors/session', headers, body: { session_id: sessionId, site_id: siteId } }),
  );

  it('records activity, counters and consent; renews expiry', async () => {
    useClock(T0);
    const s = (await start({ fingerprint: fp() })).body.data;
    useClock(T0 + 20 * MIN);
    const res = await call(updateRoute, {
      method: 'PUT',
      path: '/api/visitors/session',
      headers: key(),
      body: {
        site_id: mine.siteId,
        session_id: s.session_id,
        last_activity_at: T0 + 19 * MIN,
        current_url: 'https://shop.example.com/cart',
        page_views: 4,
        active_time: 60_000,
        custom_data: { cart: 2 },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      session_id: s.session_id,
      visitor_id: s.visitor_id,
      fingerprint: expect.any(String),
      last_activity_at: T0 + 19 * MIN,
      updated_at: T0 + 20 * MIN,
      expires_at: T0 + 50 * MIN,
      ttl: 1800,
    });
    expect(res.body.meta.api_version).toBe('1.0');
    const got = (await read(s.session_id)).body.data;
    expect(got).toMatchObject({ current_url: 'https://shop.example.com/cart', page_views: 4, active_time: 60_000, custom_data: { cart: 2 } });
  });

  it('keeps URL and custom data only while analytics is allowed, judged on the consent merged in the same request', async () => {
    useClock(T0);
    const s = (await start({ fingerprint: fp(), consent: { necessary: true, analytics: false } })).body.data;
    const put = (body: Record<string, unknown>) =>
      call(updateRoute, {
        method: 'PUT',
        path: '/api/visitors/session',
        headers: key(),
        body: { site_id: mine.siteId, session_id: s.session_id, ...body },
      });
    useClock(T0 + MIN);
    expect((await put({ current_url: 'https://shop.example.com/a', custom_data: { a: 1 }, page_views: 2 })).status).toBe(200);
    expect((await read(s.session_id)).body.data).toMatchObject({ current_url: null, custom_data: null, page_views: 2 });
    // Consent granted in the same request: its URL and data are kept, and the stored consent keeps its other fields.
    useClock(T0 + 2 * MIN);
    const granted = await put({ consent: { analytics: true }, current_url: 'https://shop.example.com/b', custom_data: { b: 2 } });
    expect(granted.body.data).toMatchObject({ last_activity_at: T0 + 2 * MIN, expires_at: T0 + 32 * MIN });
    expect((await read(s.session_id)).body.data).toMatchObject({
      current_url: 'https://shop.example.com/b',
      custom_data: { b: 2 },
      consent: { necessary: true, analytics: true },
    });
    // Withdrawn again: the next URL is not kept, the stored one stays.
    expect((await put({ consent: { analytics: false }, current_url: 'https://shop.example.com/c' })).status).toBe(200);
    expect((await read(s.session_id)).body.data).toMatchObject({
      current_url: 'https://shop.example.com/b',
      consent: { necessary: true, analytics: false },
    });
  });

  it('never moves activity back: an older last_activity_at keeps the later one stored', async () => {
    useClock(T0);
    const s = (await start({ fingerprint: fp() })).body.data;
    useClock(T0 + 10 * MIN);
    const put = (at: number) =>
      call(updateRoute, {
        method: 'PUT',
        path: '/api/visitors/session',
        headers: key(),
        body: { site_id: mine.siteId, session_id: s.session_id, last_activity_at: at },
      });
    expect((await put(T0 + 9 * MIN)).body.data.last_activity_at).toBe(T0 + 9 * MIN);
    expect((await put(T0 + 5 * MIN)).body.data).toMatchObject({ last_activity_at: T0 + 9 * MIN, expires_at: T0 + 40 * MIN });
  });
});

describe('POST /api/visitors/track', () => {
  sessionAuthMatrix(true, (headers, siteId, sessionId) =>
    call(trackRoute, {
      method: 'POST',
      path: '/api/visitors/track',
      headers,
      body: { site_id: siteId, session_id: sessionId, event_type: 'click' },
    }),
  );

  it('stores the event, lists it in the session read, counts pageviews and renews the session', async () => {
    useClock(T0);
    const s = (await start({ fingerprint: fp() })).body.data;
    useClock(T0 + 29 * MIN);
    const res = await track(s.session_id, { timestamp: T0 + 28 * MIN });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      event_id: expect.any(String),
      session_id: s.session_id,
      visitor_id: s.visitor_id,
      event_type: 'pageview',
      timestamp: T0 + 28 * MIN,
      stored: true,
      expires_at: T0 + 59 * MIN,
    });
    await track(s.session_id, { event_type: 'custom', event_name: 'signup_click', properties: { plan: 'pro' } });
    useClock(T0 + 58 * MIN); // still alive thanks to the events
    const got = (await read(s.session_id)).body.data;
    expect(got).toMatchObject({ page_views: 1, event_count: 2, last_activity_at: T0 + 29 * MIN });
    expect(got.events).toEqual([
      {
        event_id: res.body.data.event_id,
        event_type: 'pageview',
        event_name: null,
        url: 'https://shop.example.com/',
        timestamp: T0 + 28 * MIN,
        properties: null,
      },
      {
        event_id: expect.any(String),
        event_type: 'custom',
        event_name: 'signup_click',
        url: 'https://shop.example.com/',
        timestamp: T0 + 29 * MIN,
        properties: { plan: 'pro' },
      },
    ]);
  });

  it('refuses expired, unknown and other-site sessions with session_not_found; a wrong visitor_id with 400', async () => {
    useClock(T0);
    const s = (await start({ fingerprint: fp() })).body.data;
    const theirs = (await start({ fingerprint: fp() }, other)).body.data;
    expectSessionNotFound(await track(theirs.session_id), theirs.session_id, mine.siteId);
    const wrongVisitor = await track(s.session_id, { visitor_id: theirs.visitor_id });
    expect(wrongVisitor.status).toBe(400);
    useClock(T0 + 31 * MIN);
    expectSessionNotFound(await track(s.session_id), s.session_id, mine.siteId);
  });

  it.each([
    ['unknown event_type', { event_type: 'teleport' }],
    ['missing event_type', { event_type: undefined }],
    ['negative timestamp', { timestamp: -5 }],
    ['properties over 50 KB', { properties: { big: 'x'.repeat(51 * 1024) } }],
  ])('refuses %s with 400', async (_why, body) => {
    const s = (await start()).body.data;
    const res = await track(s.session_id, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
  });

  it('stores at most 1,000 events per session: the 1,001st is refused and nothing is stored', async () => {
    const s = (await start({ fingerprint: fp() })).body.data;
    const db = await getDb();
    // 999 events straight into the table, then the last ones through the route, concurrently.
    await db.execute(sql`
      insert into session_events (id, site_id, session_id, visitor_id, event_type, "timestamp", received_at)
      select gen_random_uuid(), ${mine.siteId}, ${s.session_id}, ${s.visitor_id}, 'click', ${T0}, ${T0} from generate_series(1, 999)`);
    await db.execute(sql`update visitor_sessions set event_count = 999 where id = ${s.session_id}`);
    const results = await Promise.all([0, 1, 2].map(() => track(s.session_id, { event_type: 'click' })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const refused = results.find((r) => r.status === 409)!;
    expect(refused.body.error).toMatchObject({ code: 'CONFLICT', details: { session_id: s.session_id, max_events: 1000 } });
    const got = (await read(s.session_id)).body.data;
    expect(got.event_count).toBe(1000);
    expect(got.events).toHaveLength(1000);
  });

  it('holds in the database that an event belongs to a stored session', async () => {
    const s = (await start({ fingerprint: fp() })).body.data;
    const db = await getDb();
    // The database's answer: 'stored', or the error code (23503: a foreign key is violated).
    const insert = (sessionId: string) =>
      db
        .execute(
          sql`insert into session_events (id, site_id, session_id, visitor_id, event_type, "timestamp", received_at)
              values (gen_random_uuid(), ${mine.siteId}, ${sessionId}, ${s.visitor_id}, 'click', ${T0}, ${T0})`,
        )
        .then(
          () => 'stored',
          (error) => error.cause?.code ?? error.code,
        );
    expect(await insert(randomUUID())).toBe('23503');
    expect(await insert(s.session_id)).toBe('stored');
    expect((await read(s.session_id)).body.data.events).toHaveLength(1);
  });

  it('with consent.analytics false stores only strictly necessary (consent) events, but still renews the session', async () => {
    useClock(T0);
    const s = (await start({ fingerprint: fp(), consent: { analytics: false } })).body.data;
    useClock(T0 + 20 * MIN);
    const pv = await track(s.session_id);
    expect(pv.status).toBe(200);
    expect(pv.body.data).toMatchObject({ stored: false, event_id: null, expires_at: T0 + 50 * MIN });
    const consent = await track(s.session_id, { event_type: 'consent', properties: { analytics: false } });
    expect(consent.body.data.stored).toBe(true);
    const got = (await read(s.session_id)).body.data;
    expect(got.events.map((e: any) => e.event_type)).toEqual(['consent']);
    expect(got.expires_at).toBe(T0 + 50 * MIN);
    // Granting consent later lets analytics events through.
    await call(updateRoute, {
      method: 'PUT',
      path: '/api/visitors/session',
      headers: key(),
      body: { site_id: mine.siteId, session_id: s.session_id, consent: { analytics: true } },
    });
    expect((await track(s.session_id)).body.data.stored).toBe(true);
  });

  it('acknowledges every one of many concurrent events, and each is stored', async () => {
    const s = (await start({ fingerprint: fp() })).body.data;
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => track(s.session_id, { event_type: 'click', event_name: `c${i}` })));
    expect(results.every((r) => r.status === 201)).toBe(true);
    const got = (await read(s.session_id)).body.data;
    expect(new Set(got.events.map((e: any) => e.event_id))).toEqual(new Set(results.map((r) => r.body.data.event_id)));
  });

  it('accepts a browser call from the site Origin without a key', async () => {
    const siteId = await createSite(mine.user, 'Blog', 'blog.example.org');
    const s = await call(createRoute, {
      method: 'POST',
      path: '/api/visitors/session',
      headers: { origin: 'https://blog.example.org' },
      body: { site_id: siteId },
    });
    const res = await call(trackRoute, {
      method: 'POST',
      path: '/api/visitors/track',
      headers: { origin: 'https://blog.example.org' },
      body: { site_id: siteId, session_id: s.body.data.session_id, event_type: 'pageview' },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://blog.example.org');
  });
});

describe('key revocation on the ingestion path', () => {
  it('refuses a revoked key on the very next request, even amid concurrent lookups', async () => {
    const { createKey } = await import('@/tests/helpers/harness');
    const { DELETE: revokeRoute } = await import('@/app/api/keys/route');
    const k = await createKey(mine.user, mine.siteId);
    const headers = presenters.xSaApiKey(k.apiKey);
    const s = (await start({}, mine, headers)).body.data;
    const before = await Promise.all(Array.from({ length: 20 }, () => track(s.session_id, { event_type: 'click' }, mine, headers)));
    expect(before.every((r) => r.status === 201)).toBe(true);
    const revoked = await call(revokeRoute, {
      method: 'DELETE',
      path: '/api/keys',
      headers: mine.user.auth,
      query: { id: k.id, site_id: mine.siteId },
    });
    expect(revoked.status).toBe(200);
    const after = await Promise.all([track(s.session_id, {}, mine, headers), track(s.session_id, {}, mine, key())]);
    expect(after.map((r) => r.status)).toEqual([401, 201]);
  });
});

describe('identify and segments', () => {
  it('POST /api/visitors/identify creates or updates the lead and binds it to session and visitor', async () => {
    const f = fp();
    const s = (await start({ fingerprint: f })).body.data;
    const email = `Ann-${f}@Example.com`;
    const res = await call(identifyRoute, {
      method: 'POST',
      path: '/api/visitors/identify',
      headers: key(),
      body: { site_id: mine.siteId, session_id: s.session_id, email, firstName: 'Ann', lastName: 'Lee' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      visitor_id: s.visitor_id,
      session_id: s.session_id,
      email: email.toLowerCase(),
      name: 'Ann Lee',
      is_new_lead: true,
    });
    const again = await call(identifyRoute, {
      method: 'POST',
      path: '/api/visitors/identify',
      headers: key(),
      body: { site_id: mine.siteId, session_id: s.session_id, email: email.toLowerCase() },
    });
    expect(again.body.data).toMatchObject({ lead_id: res.body.data.lead_id, name: 'Ann Lee', is_new_lead: false });
    const leadId = res.body.data.lead_id;
    // The lead's sessions, and later sessions of the visitor carry the lead.
    await endSession(s.session_id);
    const next = (await start({ fingerprint: f })).body.data;
    const list = await call(leadSessions, { path: `/api/leads/${leadId}/sessions`, params: { lead_id: leadId }, headers: key() });
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: any) => x.session_id)).toEqual([next.session_id, s.session_id]);
    expect(list.body.meta).toMatchObject({ total: 2, limit: 20, offset: 0, has_more: false, api_version: '1.0' });
    // Another site cannot see this lead's sessions.
    const theirs = await call(leadSessions, { path: `/api/leads/${leadId}/sessions`, params: { lead_id: leadId }, headers: key(other) });
    expect(theirs.status).toBe(404);
  });

  describe('POST /api/visitors/identify by visitor_id', () => {
    const identify = (body: Record<string, unknown>, t: Tenant = mine) =>
      call(identifyRoute, {
        method: 'POST',
        path: '/api/visitors/identify',
        headers: key(t),
        body: { site_id: t.siteId, email: `p-${fp()}@example.com`, ...body },
      });
    const leadOfVisitor = async (visitorId: string) => {
      const db = await getDb();
      const res = (await db.execute(sql`select lead_id from visitors where id = ${visitorId}`)) as unknown as { rows: { lead_id: string | null }[] };
      return res.rows[0]?.lead_id;
    };

    it('accepts site_id, visitor_id, session_id and the person together when the ids agree', async () => {
      const s = (await start({ fingerprint: fp() })).body.data;
      const res = await identify({ visitor_id: s.visitor_id, session_id: s.session_id, firstName: 'Kim' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({ visitor_id: s.visitor_id, session_id: s.session_id, name: 'Kim', is_new_lead: true });
      expect(await leadOfVisitor(s.visitor_id)).toBe(res.body.data.lead_id);
      expect((await read(s.session_id)).body.data.lead_id).toBe(res.body.data.lead_id);
    });

    it('binds the lead to the visitor alone when only visitor_id is given; its next session carries the lead', async () => {
      const f = fp();
      const s = (await start({ fingerprint: f })).body.data;
      const res = await identify({ visitor_id: s.visitor_id });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toEqual({
        lead_id: expect.any(String),
        visitor_id: s.visitor_id,
        session_id: null,
        email: expect.stringMatching(/^p-.*@example\.com$/),
        name: expect.any(String),
        is_new_lead: true,
      });
      expect(await leadOfVisitor(s.visitor_id)).toBe(res.body.data.lead_id);
      expect((await read(s.session_id)).body.data.lead_id ?? null).toBeNull();
      await endSession(s.session_id);
      const next = (await start({ fingerprint: f })).body.data;
      expect(next.visitor_id).toBe(s.visitor_id);
      expect((await read(next.session_id)).body.data.lead_id).toBe(res.body.data.lead_id);
    });

    it('refuses ids that name different visitors (400), neither id (400), and unknown or foreign ones (404)', async () => {
      const a = (await start({ fingerprint: fp() })).body.data;
      const b = (await start({ fingerprint: fp() })).body.data;
      const theirs = (await start({ fingerprint: fp() }, other)).body.data;
      const unknown = '00000000-0000-4000-8000-000000000000';
      const mismatch = await identify({ session_id: a.session_id, visitor_id: b.visitor_id });
      expect(mismatch.status).toBe(400);
      expect(mismatch.body).toEqual({
        success: false,
        error: {
          code: 'INVALID_REQUEST',
          message: "visitor_id is not this session's visitor",
          details: { session_id: a.session_id, visitor_id: b.visitor_id },
          request_id: expect.any(String),
        },
      });
      const neither = await identify({});
      expect(neither.status).toBe(400);
      expect(neither.body.error).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining('session_id or visitor_id is required') });
      for (const visitorId of [unknown, theirs.visitor_id]) {
        const res = await identify({ visitor_id: visitorId });
        expect(res.status).toBe(404);
        expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Visitor not found' });
      }
      expectSessionNotFound(await identify({ session_id: theirs.session_id, visitor_id: theirs.visitor_id }), theirs.session_id, mine.siteId);
      // Nothing was written for the refused requests.
      expect(await leadOfVisitor(a.visitor_id)).toBeNull();
      expect(await leadOfVisitor(b.visitor_id)).toBeNull();
    });
  });

  it('POST /api/visitors/session/{id}/identify binds an existing lead of the site only', async () => {
    const s = (await start({ fingerprint: fp() })).body.data;
    const lead = await upsertLeadByEmail(mine.siteId, { email: `b-${fp()}@example.com`, name: 'B' });
    const foreign = await upsertLeadByEmail(other.siteId, { email: `c-${fp()}@example.com`, name: 'C' });
    const send = (leadId: string) =>
      call(identifySessionRoute, {
        method: 'POST',
        path: `/api/visitors/session/${s.session_id}/identify`,
        params: { session_id: s.session_id },
        headers: key(),
        body: { lead_id: leadId, lead_data: { company: 'Acme' } },
      });
    expect((await send(foreign.id)).status).toBe(404);
    const ok = await send(lead.id);
    expect(ok.body.data).toEqual({ session_id: s.session_id, visitor_id: s.visitor_id, lead_id: lead.id });
    expect((await read(s.session_id)).body.data).toMatchObject({ lead_id: lead.id, lead_data: { company: 'Acme' } });
  });

  it('POST /api/visitors/segment adds a visitor to a segment of the same site', async () => {
    const s = (await start({ fingerprint: fp() })).body.data;
    const db = await getDb();
    const seg = (await db.execute(sql`insert into segments (site_id, name) values (${mine.siteId}, 'VIP') returning id`)) as any;
    const foreign = (await db.execute(sql`insert into segments (site_id, name) values (${other.siteId}, 'X') returning id`)) as any;
    const send = (segmentId: string, visitorId = s.visitor_id) =>
      call(segmentRoute, {
        method: 'POST',
        path: '/api/visitors/segment',
        headers: key(),
        body: { site_id: mine.siteId, visitor_id: visitorId, segment_id: segmentId },
      });
    const first = await send(seg.rows[0].id);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ visitor_id: s.visitor_id, segment_id: seg.rows[0].id, already_member: false });
    expect((await send(seg.rows[0].id)).body.data).toMatchObject({ already_member: true, added_at: first.body.data.added_at });
    expect((await send(foreign.rows[0].id)).status).toBe(404);
    const theirVisitor = (await start({}, other)).body.data.visitor_id;
    expect((await send(seg.rows[0].id, theirVisitor)).status).toBe(404);
  });
});

describe('session lists', () => {
  it('GET /api/visitors/{visitor_id}/sessions filters by from/to and paginates; other sites get 404', async () => {
    const f = fp();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      useClock(T0 + i * 60 * MIN);
      const s = (await start({ fingerprint: f })).body.data;
      ids.push(s.session_id);
      await endSession(s.session_id);
    }
    const visitorId = (await read(ids[0])).body.data.visitor_id;
    const list = (query: Record<string, number>, t = mine) =>
      call(visitorSessions, { path: `/api/visitors/${visitorId}/sessions`, params: { visitor_id: visitorId }, headers: key(t), query });
    const page = await list({ limit: 2 });
    expect(page.body.data.map((s: any) => s.session_id)).toEqual([ids[2], ids[1]]);
    expect(page.body.meta).toMatchObject({ total: 3, limit: 2, offset: 0, has_more: true });
    // previous_session_id chains them.
    expect(page.body.data[0].previous_session_id).toBe(ids[1]);
    const window = await list({ from: T0 + 30 * MIN, to: T0 + 90 * MIN });
    expect(window.body.data.map((s: any) => s.session_id)).toEqual([ids[1]]);
    expect((await list({}, other)).status).toBe(404);
  });
});

describe('site views of visitors', () => {
  it('GET /api/visitors/sites?site_id= lists the visitors of an owned site, paginated', async () => {
    const siteId = await createSite(mine.user, 'Counted');
    const { createKey } = await import('@/tests/helpers/harness');
    const k = presenters.xSaApiKey((await createKey(mine.user, siteId)).apiKey);
    for (const f of ['a', 'b', 'c'])
      await call(createRoute, { method: 'POST', path: '/api/visitors/session', headers: k, body: { site_id: siteId, fingerprint: f } });
    await call(createRoute, { method: 'POST', path: '/api/visitors/session', headers: k, body: { site_id: siteId, fingerprint: 'a' } });
    const res = await call(visitorSites, { path: '/api/visitors/sites', headers: mine.user.auth, query: { site_id: siteId, limit: 2 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
    expect(res.body.data[0]).toMatchObject({ site_id: siteId, fingerprint: expect.any(String), session_count: 1, lead_id: null });
    expect(res.body.meta).toEqual({ total: 3, limit: 2, offset: 0, has_more: true });

    const stats = await call(getStats, {
      path: `/sites/${siteId}/stats`,
      params: { site_id: siteId },
      headers: presenters.xApiKey(k['x-sa-api-key']),
    });
    expect(stats.body.data).toMatchObject({
      visitors: { total: 3, identified: 0, bots: 3 },
      sessions: { total: 3, active: 3, last_24h: 3, bots: 3 },
      events: { total: 0, last_24h: 0 },
      uploads: { total: 0, bytes: 0 },
    });
  });
});
