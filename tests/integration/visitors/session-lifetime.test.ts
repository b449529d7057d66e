import { and, eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GET as visitorSessions } from '@/app/api/visitors/[visitor_id]/sessions/route';
import { POST as endByBody } from '@/app/api/visitors/session/end/route';
import { GET as getSession, POST as createRoute, PUT as updateRoute } from '@/app/api/visitors/session/route';
import { POST as trackRoute } from '@/app/api/visitors/track/route';
import { POST as createEndpoint } from '@/app/api/webhooks/route';
import { GET as getStats } from '@/app/sites/[site_id]/stats/route';
import { resetConfig } from '@/lib/core/config';
import { getDb } from '@/lib/db/client';
import { outboundEvents, visitorSessions as sessionsTable } from '@/lib/db/schema';
import { sessionSweep } from '@/lib/visitors/jobs';
import { closeExpiredSessions } from '@/lib/visitors/service';
import { presenters } from '@/tests/helpers/auth-matrix';
import { testClock } from '@/tests/helpers/clock';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';

/**
 * What a session is for analytics: the page views of one visitor until it is idle for the
 * inactivity limit or 24 hours old; how it ends when it runs out of time (read before and after
 * anything closes it); where it came from, kept for the whole visit.
 */
let mine: Tenant;
let other: Tenant;
beforeAll(async () => {
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
});
const useClock = testClock();

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const MIN = 60_000;
const SHOP = 'https://shop.example.com';
const fp = () => `fp-${Math.random().toString(36).slice(2)}`;
const key = (t: Tenant = mine) => presenters.xSaApiKey(t.key);

const start = (body: Record<string, unknown>, t: Tenant = mine) =>
  call(createRoute, { method: 'POST', path: '/api/visitors/session', headers: key(t), body: { site_id: t.siteId, ...body } });
const track = (sessionId: string, body: Record<string, unknown>, t: Tenant = mine) =>
  call(trackRoute, { method: 'POST', path: '/api/visitors/track', headers: key(t), body: { site_id: t.siteId, session_id: sessionId, ...body } });
const read = (sessionId: string) =>
  call(getSession, { path: '/api/visitors/session', headers: key(), query: { session_id: sessionId, site_id: mine.siteId } });
const history = async (visitorId: string, t: Tenant = mine) =>
  (await call(visitorSessions, { path: `/api/visitors/${visitorId}/sessions`, params: { visitor_id: visitorId }, headers: key(t) })).body.data;
const page = (sessionId: string, path: string, t: Tenant = mine) => track(sessionId, { event_type: 'pageview', url: SHOP + path }, t);

/** Subscribes the tenant's site to session.ended, so its ends are written to the outbox. */
async function subscribe(t: Tenant) {
  const res = await call(createEndpoint, {
    method: 'POST',
    path: '/api/webhooks',
    headers: presenters.xApiKey(t.key),
    body: { site_id: t.siteId, url: 'https://93.184.216.34/hook', events: ['session.ended'] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}
async function endedEvents(sessionId: string) {
  const db = await getDb();
  const rows = await db.select().from(outboundEvents).where(eq(outboundEvents.type, 'session.ended'));
  return rows.filter((r) => r.data.session_id === sessionId).map((r) => r.data);
}

describe('a session that runs out of time', () => {
  beforeAll(() => subscribe(mine));

  it('reads as ended at its last activity on its last page (timeout), and the return closes it just so', async () => {
    const f = fp();
    useClock(T0);
    const s = (await start({ fingerprint: f, url: `${SHOP}/` })).body.data;
    await page(s.session_id, '/');
    useClock(T0 + 4 * MIN);
    await page(s.session_id, '/pricing');
    useClock(T0 + 9 * MIN);
    await page(s.session_id, '/checkout?step=2');
    const lastActivity = T0 + 9 * MIN;
    const expected = {
      status: 'expired',
      page_views: 3,
      current_url: `${SHOP}/checkout?step=2`,
      exit_url: `${SHOP}/checkout?step=2`,
      exit_type: 'timeout',
      ended_at: lastActivity,
      duration: 9 * MIN,
      last_activity_at: lastActivity,
    };

    // 30 idle minutes later nothing has closed it, yet every reader shows how it ended.
    useClock(lastActivity + 30 * MIN);
    expect((await read(s.session_id)).body.error.code).toBe('session_not_found');
    const [before] = await history(s.visitor_id);
    expect(before).toMatchObject(expected);
    expect(await endedEvents(s.session_id)).toEqual([]);

    // The visitor returns an hour later: a new session, chained; the old one is stored as it read.
    useClock(lastActivity + 90 * MIN);
    const next = (await start({ fingerprint: f, url: `${SHOP}/blog` })).body.data;
    expect(next).toMatchObject({ is_new_session: true, visitor_id: s.visitor_id, previous_session_id: s.session_id });
    const [now, after] = await history(s.visitor_id);
    expect(now.session_id).toBe(next.session_id);
    // Stored as it read (only the row's update time moved).
    expect({ ...after, updated_at: 0 }).toEqual({ ...before, updated_at: 0 });
    const db = await getDb();
    const [stored] = await db.select().from(sessionsTable).where(eq(sessionsTable.id, s.session_id));
    expect(stored).toMatchObject({ status: 'expired', exitType: 'timeout', endedAt: lastActivity, exitUrl: `${SHOP}/checkout?step=2` });
    expect(await endedEvents(s.session_id)).toEqual([
      {
        session_id: s.session_id,
        visitor_id: s.visitor_id,
        lead_id: null,
        ended_at: new Date(lastActivity).toISOString(),
        duration: 9 * MIN,
        page_views: 3,
        exit_type: 'timeout',
      },
    ]);
  });

  it('is a bounce when it saw one page', async () => {
    useClock(T0);
    const s = (await start({ fingerprint: fp(), url: `${SHOP}/landing` })).body.data;
    await page(s.session_id, '/landing');
    useClock(T0 + 45 * MIN);
    const [ended] = await history(s.visitor_id);
    expect(ended).toMatchObject({ status: 'expired', exit_type: 'bounce', exit_url: `${SHOP}/landing`, ended_at: T0, duration: 0, page_views: 1 });
  });

  it('ends at its 24-hour cap even while active, at its last activity', async () => {
    useClock(T0);
    const s = (await start({ fingerprint: fp(), url: `${SHOP}/` })).body.data;
    for (let t = 20; t < 24 * 60; t += 20) {
      useClock(T0 + t * MIN);
      expect((await page(s.session_id, `/p/${t}`)).status).toBe(201);
    }
    useClock(T0 + 24 * 60 * MIN);
    expect((await page(s.session_id, '/late')).status).toBe(404);
    const [ended] = await history(s.visitor_id);
    expect(ended).toMatchObject({ status: 'expired', exit_type: 'timeout', exit_url: `${SHOP}/p/1420`, ended_at: T0 + 1420 * MIN });
  });

  it('closeExpiredSessions closes what ran out of time at every site, once, and leaves live sessions alone', async () => {
    await subscribe(other);
    useClock(T0);
    const idleVisitor = fp();
    const idle = (await start({ fingerprint: idleVisitor, url: `${SHOP}/a` })).body.data;
    await page(idle.session_id, '/a');
    await page(idle.session_id, '/b');
    const foreign = (await start({ fingerprint: fp(), url: `${SHOP}/x` }, other)).body.data;
    useClock(T0 + 20 * MIN);
    const live = (await start({ fingerprint: fp() })).body.data;
    useClock(T0 + 35 * MIN);
    // Other suites' sessions may be waiting too: close until none is left.
    let closed = 0;
    for (let n = -1; n !== 0;) closed += n = await closeExpiredSessions(T0 + 35 * MIN, 50);
    expect(closed).toBeGreaterThanOrEqual(2);
    const db = await getDb();
    const status = async (id: string) => (await db.select().from(sessionsTable).where(eq(sessionsTable.id, id)))[0];
    expect(await status(idle.session_id)).toMatchObject({ status: 'expired', exitType: 'timeout', exitUrl: `${SHOP}/b`, endedAt: T0, duration: 0 });
    expect(await status(foreign.session_id)).toMatchObject({ status: 'expired', exitType: 'bounce', exitUrl: `${SHOP}/x` });
    expect((await status(live.session_id)).status).toBe('active');
    expect(await closeExpiredSessions(T0 + 35 * MIN)).toBe(0);
    expect(await endedEvents(idle.session_id)).toHaveLength(1);
    expect(await endedEvents(foreign.session_id)).toHaveLength(1);
    // Its visitor's return is chained to it as usual, and announces nothing twice.
    const back = await start({ fingerprint: idleVisitor });
    expect(back.body.data).toMatchObject({ is_new_session: true, previous_session_id: idle.session_id });
    expect(await endedEvents(idle.session_id)).toHaveLength(1);
  });
  it("the minute's session sweep (a background job) closes every session that lapsed and no live one", async () => {
    const t = await createTenant();
    useClock(T0);
    const lapsed = [];
    for (let i = 0; i < 3; i++) lapsed.push((await start({ fingerprint: fp(), url: `${SHOP}/in/${i}` }, t)).body.data);
    useClock(T0 + 25 * MIN);
    const live = (await start({ fingerprint: fp() }, t)).body.data;
    useClock(T0 + 31 * MIN);
    await sessionSweep.run({ id: 'sweep', attempt: 0, retryLimit: 0, signal: new AbortController().signal });
    const db = await getDb();
    const rows = await db.select().from(sessionsTable).where(eq(sessionsTable.siteId, t.siteId));
    const statusOf = new Map(rows.map((r) => [r.id, r.status]));
    for (const s of lapsed) expect(statusOf.get(s.session_id)).toBe('expired');
    expect(statusOf.get(live.session_id)).toBe('active');
    expect(await closeExpiredSessions(T0 + 31 * MIN)).toBe(0);
  });
  it('the site stats count as active only the sessions that still take activity', async () => {
    const t = await createTenant();
    const end = (id: string) =>
      call(endByBody, { method: 'POST', path: '/api/visitors/session/end', headers: key(t), body: { site_id: t.siteId, session_id: id } });
    useClock(T0);
    await start({ fingerprint: fp() }, t); // idle from T0: lapsed at T0 + 30 min
    const kept = (await start({ fingerprint: fp() }, t)).body.data;
    const closed = (await start({ fingerprint: fp() }, t)).body.data;
    useClock(T0 + 20 * MIN);
    await page(kept.session_id, '/still-here', t);
    expect((await end(closed.session_id)).status).toBe(200);
    const stats = async () =>
      (await call(getStats, { path: `/sites/${t.siteId}/stats`, params: { site_id: t.siteId }, headers: presenters.xApiKey(t.key) })).body.data;
    expect((await stats()).sessions).toMatchObject({ total: 3, active: 2 });
    useClock(T0 + 35 * MIN);
    expect((await stats()).sessions).toMatchObject({ total: 3, active: 1 });
    useClock(T0 + 20 * MIN + 30 * MIN);
    expect((await stats()).sessions).toMatchObject({ total: 3, active: 0 });
  });
});

describe('the end route', () => {
  it('without exit fields takes the last page as exit: bounce for one page, exit for more', async () => {
    useClock(T0);
    const one = (await start({ fingerprint: fp(), url: `${SHOP}/` })).body.data;
    await page(one.session_id, '/');
    const two = (await start({ fingerprint: fp(), url: `${SHOP}/` })).body.data;
    await page(two.session_id, '/');
    await page(two.session_id, '/account');
    useClock(T0 + 3 * MIN);
    const end = (id: string) =>
      call(endByBody, { method: 'POST', path: '/api/visitors/session/end', headers: key(), body: { site_id: mine.siteId, session_id: id } });
    expect((await end(one.session_id)).body.data).toMatchObject({
      status: 'closed',
      exit_type: 'bounce',
      exit_url: `${SHOP}/`,
      ended_at: T0 + 3 * MIN,
    });
    expect((await end(two.session_id)).body.data).toMatchObject({
      status: 'closed',
      exit_type: 'exit',
      exit_url: `${SHOP}/account`,
      duration: 3 * MIN,
      page_views: 2,
    });
  });
});

describe('where a visit came from', () => {
  it('fills utm_* from the landing URL and referrer from ?ref= when the body has none; the body wins', async () => {
    const landing = `${SHOP}/?utm_source=newsletter&utm_medium=email&utm_campaign=spring%20sale&utm_term=shoes&utm_content=hero&ref=producthunt`;
    const fromUrl = (await start({ fingerprint: fp(), url: landing })).body.data;
    expect((await read(fromUrl.session_id)).body.data).toMatchObject({
      url: landing,
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'spring sale',
      utm_term: 'shoes',
      utm_content: 'hero',
      referrer: 'producthunt',
    });
    const given = (await start({ fingerprint: fp(), url: landing, utm_source: 'partner', referrer: 'https://news.ycombinator.com/' })).body.data;
    expect((await read(given.session_id)).body.data).toMatchObject({
      utm_source: 'partner',
      utm_medium: 'email',
      referrer: 'https://news.ycombinator.com/',
    });
    const relative = (await start({ fingerprint: fp(), url: '/pricing?utm_source=ads#top' })).body.data;
    expect((await read(relative.session_id)).body.data).toMatchObject({ utm_source: 'ads', referrer: null });
  });

  it("keeps the landing's source for the whole visit, so its conversion is attributed to it", async () => {
    const f = fp();
    useClock(T0);
    const s = (await start({ fingerprint: f, url: `${SHOP}/?utm_source=newsletter`, referrer: 'https://mail.example.net/' })).body.data;
    await page(s.session_id, '/?utm_source=newsletter');
    useClock(T0 + 2 * MIN);
    // The next page of the visit (a server-side client may start again on every page) keeps the session and its source.
    const again = (await start({ fingerprint: f, url: `${SHOP}/pricing?utm_source=other`, referrer: `${SHOP}/` })).body.data;
    expect(again).toMatchObject({ session_id: s.session_id, is_new_session: false });
    await page(s.session_id, '/pricing?utm_source=other');
    await track(s.session_id, { event_type: 'conversion', event_name: 'purchase', url: `${SHOP}/checkout` });
    const got = (await read(s.session_id)).body.data;
    expect(got).toMatchObject({
      utm_source: 'newsletter',
      referrer: 'https://mail.example.net/',
      page_views: 2,
      conversions: 1,
      current_url: `${SHOP}/pricing?utm_source=other`,
    });
  });

  it('keeps no source when analytics consent is refused', async () => {
    const s = (await start({ fingerprint: fp(), url: `${SHOP}/?utm_source=newsletter&ref=x`, consent: { analytics: false } })).body.data;
    expect((await read(s.session_id)).body.data).toMatchObject({ url: null, utm_source: null, referrer: null });
  });
});

describe('the inactivity limit', () => {
  afterEach(() => {
    delete process.env.SESSION_IDLE_TIMEOUT_SECONDS;
    resetConfig();
  });

  it('comes from SESSION_IDLE_TIMEOUT_SECONDS, for starts, events and pings alike', async () => {
    process.env.SESSION_IDLE_TIMEOUT_SECONDS = '120';
    resetConfig();
    useClock(T0);
    const s = (await start({ fingerprint: fp() })).body.data;
    expect(s).toMatchObject({ ttl: 120, expires_at: T0 + 2 * MIN });
    useClock(T0 + MIN);
    expect((await page(s.session_id, '/')).body.data.expires_at).toBe(T0 + 3 * MIN);
    const ping = await call(updateRoute, {
      method: 'PUT',
      path: '/api/visitors/session',
      headers: key(),
      body: { site_id: mine.siteId, session_id: s.session_id },
    });
    expect(ping.body.data).toMatchObject({ ttl: 120, expires_at: T0 + 3 * MIN });
    useClock(T0 + 3 * MIN);
    expect((await page(s.session_id, '/')).status).toBe(404);
    const db = await getDb();
    const [row] = await db
      .select()
      .from(sessionsTable)
      .where(and(eq(sessionsTable.id, s.session_id), eq(sessionsTable.status, 'active')));
    expect(row.expiresAt).toBe(T0 + 3 * MIN);
  });
});
