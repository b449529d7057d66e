import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { POST as identifyRoute } from '@/app/api/visitors/identify/route';
import { GET as breakdownRoute } from '@/app/sites/[site_id]/analytics/breakdown/[dimension]/route';
import { GET as funnelRoute } from '@/app/sites/[site_id]/analytics/funnel/route';
import { GET as overviewRoute } from '@/app/sites/[site_id]/analytics/overview/route';
import { GET as statsRoute } from '@/app/sites/[site_id]/stats/route';
import { rollUpSite } from '@/lib/analytics/rollups';
import { overview, visits } from '@/lib/analytics/service';
import { getDb } from '@/lib/db/client';
import { updateSettings } from '@/lib/settings/service';
import { closeExpiredSessions, siteSessions } from '@/lib/visitors/service';
import { createActivities } from '@/lib/worker/activities';
import { workflowDefinitions } from '@/lib/workflows/definitions';
import { presenters } from '@/tests/helpers/auth-matrix';
import { testClock } from '@/tests/helpers/clock';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { suiteTenants } from '@/tests/helpers/tenants';
import { BOT, IPHONE, UA, visitorBrowser } from '@/tests/helpers/visitor-browser';

/**
 * The analytics reads over visits tracked through the real routes: what each figure counts, that a
 * day answers the same before and after it is rolled up, time zones, bad periods, and that a site
 * sees only its own visits. (The shared auth cases run in tests/integration/http/auth-matrix.test.ts.)
 */
const [mine, other, zoned] = suiteTenants(3);
const useClock = testClock();

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const D = '2026-11-21';
const D0 = Date.parse(`${D}T00:00:00Z`);
const SHOP = 'https://shop.example.com';
const PARTNER = 'https://partner.example/deal';
const BLOG = 'https://blog.example/post';
const BROCHURE = `${SHOP}/brochure.pdf`;

/** A visitor's browser: its own fingerprint, a User-Agent, the site's key. */
function browser(t: Tenant, ua = UA) {
  const visitor = visitorBrowser(t, useClock, ua);
  return {
    land: visitor.land,
    event: visitor.event,
    view: (at: number, path: string) => visitor.event(at, { event_type: 'pageview', url: SHOP + path }),
    /** The tag's report of a page left: engaged time and scroll depth. */
    leave: (at: number, path: string, engaged_ms: number, scroll_depth: number) =>
      visitor.event(at, { event_type: 'engagement', url: SHOP + path, properties: { engaged_ms, scroll_depth } }),
    click: (at: number, type: 'outbound' | 'download', href: string) =>
      visitor.event(at, { event_type: type, url: `${SHOP}/pricing`, properties: { href } }),
    async identify(at: number, email: string) {
      useClock(at);
      const res = await call(identifyRoute, {
        method: 'POST',
        path: '/api/visitors/identify',
        headers: visitor.headers,
        body: { site_id: t.siteId, session_id: visitor.sessionId(), email },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      // Leads take their creation time from the database; put it where the visit happened.
      const db = await getDb();
      await db.execute(sql`update leads set created_at = to_timestamp(${at / 1000}) where id = ${res.body.data.lead_id}`);
    },
  };
}

const read = (
  handler: typeof overviewRoute,
  t: Tenant,
  path: string,
  params: Record<string, string>,
  query: Record<string, string | number | undefined>,
) => call(handler, { path, params: { site_id: t.siteId, ...params }, query, headers: presenters.xApiKey(t.readKey) });
const getOverview = (t: Tenant, query: Record<string, string | undefined>) =>
  read(overviewRoute, t, `/sites/${t.siteId}/analytics/overview`, {}, query);
const getBreakdown = (t: Tenant, dimension: string, query: Record<string, string | number | undefined>) =>
  read(breakdownRoute, t, `/sites/${t.siteId}/analytics/breakdown/${dimension}`, { dimension }, query);
const getFunnel = (t: Tenant, query: Record<string, string | undefined>) => read(funnelRoute, t, `/sites/${t.siteId}/analytics/funnel`, {}, query);

/**
 * The shop's two days: visitor A lands from a newsletter (via Google), reads three pages, adds to
 * cart, buys and leaves an email; B lands on pricing from Hacker News on a phone, adds to cart and
 * leaves; A comes back the next morning for one page. A crawler and another site's visitor too.
 */
beforeAll(async () => {
  const a = browser(mine);
  await a.land(D0 + 10 * HOUR, {
    url: `${SHOP}/?utm_source=newsletter&utm_campaign=spring`,
    referrer: 'https://www.google.com/search?q=shoes',
    location: { country: 'ES' },
  });
  await a.view(D0 + 10 * HOUR, '/?utm_source=newsletter&utm_campaign=spring');
  await a.leave(D0 + 10 * HOUR + MIN, '/?utm_source=newsletter', 60_000, 40);
  await a.view(D0 + 10 * HOUR + 2 * MIN, '/pricing');
  await a.event(D0 + 10 * HOUR + 4 * MIN, { event_type: 'custom', event_name: 'add_to_cart', url: `${SHOP}/pricing` });
  await a.click(D0 + 10 * HOUR + 4 * MIN, 'outbound', PARTNER);
  await a.leave(D0 + 10 * HOUR + 4 * MIN + 30_000, '/pricing', 120_000, 100);
  await a.view(D0 + 10 * HOUR + 5 * MIN, '/checkout');
  await a.click(D0 + 10 * HOUR + 5 * MIN + 30_000, 'outbound', BLOG);
  await a.click(D0 + 10 * HOUR + 6 * MIN, 'outbound', PARTNER);
  await a.event(D0 + 10 * HOUR + 6 * MIN, { event_type: 'conversion', event_name: 'purchase', url: `${SHOP}/checkout`, properties: { value: 49 } });
  await a.identify(D0 + 10 * HOUR + 7 * MIN, 'ada@example.com');

  const b = browser(mine, IPHONE);
  await b.land(D0 + 15 * HOUR, {
    url: `${SHOP}/pricing`,
    referrer: 'https://news.ycombinator.com/item?id=1',
    location: { country: 'US' },
    device: { type: 'mobile' },
  });
  await b.view(D0 + 15 * HOUR, '/pricing');
  await b.click(D0 + 15 * HOUR + 20_000, 'outbound', PARTNER);
  await b.click(D0 + 15 * HOUR + 30_000, 'download', BROCHURE);
  await b.event(D0 + 15 * HOUR + MIN, { event_type: 'custom', event_name: 'add_to_cart', url: `${SHOP}/pricing` });
  await b.leave(D0 + 15 * HOUR + MIN, '/pricing', 30_000, 50);

  const crawler = browser(mine, BOT);
  await crawler.land(D0 + 12 * HOUR, { url: `${SHOP}/?utm_source=newsletter` });
  await crawler.view(D0 + 12 * HOUR, '/');
  await crawler.view(D0 + 12 * HOUR + MIN, '/pricing');
  await crawler.event(D0 + 12 * HOUR + 2 * MIN, { event_type: 'custom', event_name: 'add_to_cart' });
  await crawler.event(D0 + 12 * HOUR + 3 * MIN, { event_type: 'conversion', event_name: 'purchase' });
  await crawler.leave(D0 + 12 * HOUR + 3 * MIN, '/', 3_600_000, 100);
  await crawler.click(D0 + 12 * HOUR + 3 * MIN, 'outbound', PARTNER);

  const elsewhere = browser(other);
  await elsewhere.land(D0 + 11 * HOUR, { url: `${SHOP}/?utm_source=newsletter` });
  await elsewhere.view(D0 + 11 * HOUR, '/');
  await elsewhere.event(D0 + 11 * HOUR + MIN, { event_type: 'conversion', event_name: 'purchase' });
  await elsewhere.click(D0 + 11 * HOUR + MIN, 'download', BROCHURE);

  await a.land(D0 + DAY + 9 * HOUR, { url: `${SHOP}/`, location: { country: 'ES' } });
  await a.view(D0 + DAY + 9 * HOUR, '/');
});

const NEXT = '2026-11-22';

/** The days of a site rolled up so far (UTC), up to `last`, and when each was computed. */
async function keptDays(t: Tenant, last = NEXT): Promise<string[]> {
  return (await keptAt(t, last)).map((r) => r.day);
}
async function keptAt(t: Tenant, last = NEXT): Promise<{ day: string; at: number }[]> {
  const db = await getDb();
  const found = await db.execute(
    sql`select to_char(day, 'YYYY-MM-DD') as day, computed_at::float8 as at from analytics_days
        where site_id = ${t.siteId} and tz = 'UTC' and day <= ${last}::date order by day`,
  );
  return (found as unknown as { rows: { day: string; at: number }[] }).rows;
}
const TWO_DAYS = { from: D, to: NEXT };

const expectedOverview = (siteId: string) => ({
  site_id: siteId,
  range: { from: D, to: NEXT, timezone: 'UTC' },
  totals: { visitors: 2, sessions: 3, page_views: 5, bounce_rate: 0.6667, avg_duration_ms: 140_000, conversions: 1, new_leads: 1, revenue: [] },
  // The bot's session of the fixture, counted apart.
  bots: { visitors: 1, sessions: 1 },
  series: [
    { date: D, visitors: 2, sessions: 2, page_views: 4, bounce_rate: 0.5, avg_duration_ms: 210_000, conversions: 1, new_leads: 1, revenue: [] },
    { date: NEXT, visitors: 1, sessions: 1, page_views: 1, bounce_rate: 1, avg_duration_ms: 0, conversions: 0, new_leads: 0, revenue: [] },
  ],
  filters: [],
});

describe('GET /sites/{site_id}/analytics/overview', () => {
  it('counts visitors, sessions, page views, bounces, duration, conversions and leads — the same before and after the days are rolled up', async () => {
    // The evening of the first day: both days open, computed from the raw rows.
    useClock(D0 + 23 * HOUR);
    const open = await getOverview(mine, TWO_DAYS);
    expect(open.status, JSON.stringify(open.body)).toBe(200);
    expect(open.body).toEqual({ success: true, data: expectedOverview(mine.siteId) });
    await rollUpSite(mine.siteId);
    expect(await keptDays(mine)).toEqual([]);
    // Noon of the second day, the first day's sessions all ended: a read does not roll it up, the job does.
    useClock(D0 + DAY + 12 * HOUR);
    expect((await getOverview(mine, TWO_DAYS)).body.data).toEqual(expectedOverview(mine.siteId));
    expect(await keptDays(mine)).toEqual([]);
    await rollUpSite(mine.siteId);
    expect(await keptDays(mine)).toEqual([D]);
    expect((await getOverview(mine, TWO_DAYS)).body.data).toEqual(expectedOverview(mine.siteId));
    // Both finished: read from the raw rows until the job ran, from the rollups after, the same.
    useClock(D0 + 5 * DAY);
    expect((await getOverview(mine, TWO_DAYS)).body.data).toEqual(expectedOverview(mine.siteId));
    expect(await keptDays(mine)).toEqual([D]);
    await rollUpSite(mine.siteId);
    expect(await keptDays(mine)).toEqual([D, NEXT]);
    expect((await getOverview(mine, TWO_DAYS)).body.data).toEqual(expectedOverview(mine.siteId));
    // A second run finds nothing to do.
    expect(await rollUpSite(mine.siteId)).toBe(0);
  });

  it('rolls up a day once no session that started on it can change, and not before; a change after rolls it up again', async () => {
    const t = await createTenant();
    const night = browser(t);
    // A visit that starts just before midnight and goes on after it.
    await night.land(D0 + DAY - 10 * MIN, { url: `${SHOP}/` });
    await night.view(D0 + DAY - 10 * MIN, '/');
    await night.view(D0 + DAY + 10 * MIN, '/pricing');
    const day = async (at: number) => {
      useClock(at);
      await rollUpSite(t.siteId);
      return getOverview(t, { from: D, to: D }).then((r) => r.body.data.totals);
    };
    // 00:20: the visit is still live, so its day is computed from the raw rows on every read.
    expect(await day(D0 + DAY + 20 * MIN)).toMatchObject({ sessions: 1, page_views: 1, bounce_rate: 0, avg_duration_ms: 20 * MIN });
    expect(await keptDays(t)).toEqual([]);
    await night.view(D0 + DAY + 25 * MIN, '/checkout');
    expect(await day(D0 + DAY + 30 * MIN)).toMatchObject({ sessions: 1, page_views: 1, avg_duration_ms: 35 * MIN });
    expect(await keptDays(t)).toEqual([]);
    // 01:00: it ran out of time at 00:55, nothing of that day can change: rolled up, the same figures.
    expect(await day(D0 + DAY + HOUR)).toMatchObject({ sessions: 1, page_views: 1, bounce_rate: 0, avg_duration_ms: 35 * MIN });
    expect(await keptDays(t)).toEqual([D]);
    const [first] = await keptAt(t);
    // 01:05: the sweep closes the lapsed session (a write to the day's session after its rollup): the next run rolls the day again.
    useClock(D0 + DAY + HOUR + 5 * MIN);
    expect(await closeExpiredSessions(undefined, 500)).toBeGreaterThan(0);
    expect(await day(D0 + DAY + HOUR + 10 * MIN)).toMatchObject({ sessions: 1, page_views: 1, bounce_rate: 0, avg_duration_ms: 35 * MIN });
    const [again] = await keptAt(t);
    expect(again.day).toBe(D);
    expect(again.at).toBeGreaterThan(first.at);
    // The next day's page views are the next day's.
    useClock(D0 + 3 * DAY);
    await rollUpSite(t.siteId);
    expect((await getOverview(t, { from: NEXT, to: NEXT })).body.data.totals).toMatchObject({ sessions: 0, page_views: 2 });
  });

  it('counts a returning visitor once over a period, and on each day of it', async () => {
    useClock(D0 + 5 * DAY);
    const week = (await getOverview(mine, { from: '2026-11-18', to: '2026-11-24' })).body.data;
    expect(week.totals).toMatchObject({ visitors: 2, sessions: 3 });
    expect(week.series.map((d: any) => [d.date, d.visitors])).toEqual([
      ['2026-11-18', 0],
      ['2026-11-19', 0],
      ['2026-11-20', 0],
      [D, 2],
      [NEXT, 1],
      ['2026-11-23', 0],
      ['2026-11-24', 0],
    ]);
    expect(week.series[0]).toEqual({
      date: '2026-11-18',
      visitors: 0,
      sessions: 0,
      page_views: 0,
      bounce_rate: null,
      avg_duration_ms: null,
      conversions: 0,
      new_leads: 0,
      revenue: [],
    });
    // A period starting on the second day sees A as a visitor of that day.
    expect((await getOverview(mine, { from: NEXT, to: NEXT })).body.data.totals).toMatchObject({ visitors: 1, sessions: 1, page_views: 1 });
  });

  it('defaults to the last 30 days up to today', async () => {
    useClock(D0 + DAY + 12 * HOUR);
    const res = (await getOverview(mine, {})).body.data;
    expect(res.range).toEqual({ from: '2026-10-24', to: NEXT, timezone: 'UTC' });
    expect(res.series).toHaveLength(30);
    expect(res.totals).toMatchObject({ visitors: 2, sessions: 3 });
    // The service the console calls answers the same.
    expect(await overview(mine.siteId)).toEqual(res);
  });

  it("counts days in the site's time zone with timezone=site", async () => {
    await updateSettings(zoned.siteId, { business_hours: { timezone: 'America/New_York' } });
    const late = browser(zoned);
    // 02:00 UTC on the 21st is 21:00 on the 20th in New York.
    await late.land(D0 + 2 * HOUR, { url: `${SHOP}/` });
    await late.view(D0 + 2 * HOUR, '/');
    const noon = browser(zoned);
    await noon.land(D0 + 17 * HOUR, { url: `${SHOP}/` });
    await noon.view(D0 + 17 * HOUR, '/');
    for (const at of [D0 + 20 * HOUR, D0 + 6 * DAY]) {
      useClock(at);
      const local = (await getOverview(zoned, { from: '2026-11-20', to: D, timezone: 'site' })).body.data;
      expect(local.range).toEqual({ from: '2026-11-20', to: D, timezone: 'America/New_York' });
      expect(local.series.map((d: any) => [d.date, d.sessions, d.page_views])).toEqual([
        ['2026-11-20', 1, 1],
        [D, 1, 1],
      ]);
      const utc = (await getOverview(zoned, { from: '2026-11-20', to: D })).body.data;
      expect(utc.series.map((d: any) => [d.date, d.sessions])).toEqual([
        ['2026-11-20', 0],
        [D, 2],
      ]);
    }
  });
});

describe('GET /sites/{site_id}/analytics/breakdown/{dimension}', () => {
  const cases: [string, unknown[]][] = [
    [
      'pages',
      [
        // Engagement: the mean of the reports of each page left (the crawler's are not counted).
        {
          value: '/',
          sessions: 2,
          page_views: 2,
          bounce_rate: null,
          avg_duration_ms: null,
          conversions: null,
          avg_engaged_ms: 60_000,
          avg_scroll_depth: 40,
        },
        { value: '/pricing', sessions: 2, page_views: 2, avg_engaged_ms: 75_000, avg_scroll_depth: 75, visitors: null, clicks: null },
        { value: '/checkout', sessions: 1, page_views: 1, avg_engaged_ms: null, avg_scroll_depth: null },
      ],
    ],
    [
      'exit_pages',
      [
        { value: '/checkout', sessions: 1, page_views: 3, bounce_rate: 0, conversions: 1, avg_engaged_ms: null },
        { value: '/', sessions: 1, page_views: 1, bounce_rate: 1 },
        { value: '/pricing', sessions: 1, page_views: 1, bounce_rate: 1 },
      ],
    ],
    [
      'browsers',
      [
        { value: 'Chrome', sessions: 2, page_views: 4, conversions: 1 },
        { value: 'Safari', sessions: 1, page_views: 1, conversions: 0 },
      ],
    ],
    [
      'operating_systems',
      [
        { value: 'Linux', sessions: 2, page_views: 4 },
        { value: 'iOS', sessions: 1, page_views: 1 },
      ],
    ],
    [
      'outbound_links',
      [
        // Partner: A twice, B once (the crawler's click is not counted); the figures are of the sessions that clicked.
        { value: PARTNER, visitors: 2, clicks: 3, sessions: 2, page_views: 4, bounce_rate: 0.5, avg_duration_ms: 210_000, conversions: 1 },
        { value: BLOG, visitors: 1, clicks: 1, sessions: 1, page_views: 3, bounce_rate: 0, conversions: 1, avg_engaged_ms: null },
      ],
    ],
    ['downloads', [{ value: BROCHURE, visitors: 1, clicks: 1, sessions: 1, page_views: 1, bounce_rate: 1, conversions: 0 }]],
    [
      'entry_pages',
      [
        { value: '/', sessions: 2, page_views: 4, bounce_rate: 0.5, avg_duration_ms: 180_000, conversions: 1 },
        { value: '/pricing', sessions: 1, page_views: 1, bounce_rate: 1, avg_duration_ms: 60_000, conversions: 0 },
      ],
    ],
    [
      'referrers',
      [
        { value: 'google.com', sessions: 1, page_views: 3, bounce_rate: 0, avg_duration_ms: 360_000, conversions: 1 },
        { value: 'news.ycombinator.com', sessions: 1, page_views: 1, bounce_rate: 1, avg_duration_ms: 60_000, conversions: 0 },
        { value: null, sessions: 1, page_views: 1, bounce_rate: 1, avg_duration_ms: 0, conversions: 0 },
      ],
    ],
    [
      'utm_sources',
      [
        { value: null, sessions: 2, page_views: 2, bounce_rate: 1, avg_duration_ms: 30_000, conversions: 0 },
        { value: 'newsletter', sessions: 1, page_views: 3, bounce_rate: 0, avg_duration_ms: 360_000, conversions: 1 },
      ],
    ],
    [
      'utm_campaigns',
      [
        { value: null, sessions: 2 },
        { value: 'spring', sessions: 1, conversions: 1 },
      ],
    ],
    ['utm_mediums', [{ value: null, sessions: 3 }]],
    [
      'countries',
      [
        { value: 'ES', sessions: 2, page_views: 4, conversions: 1 },
        { value: 'US', sessions: 1 },
      ],
    ],
    [
      'devices',
      [
        { value: 'desktop', sessions: 2, conversions: 1 },
        { value: 'mobile', sessions: 1, conversions: 0 },
      ],
    ],
  ];

  it.each(cases)('%s: the top values, largest first, the same before and after the rollup', async (dimension, expected) => {
    for (const at of [D0 + DAY + 23 * HOUR, D0 + 5 * DAY]) {
      useClock(at);
      const res = await getBreakdown(mine, dimension, TWO_DAYS);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({ site_id: mine.siteId, range: { from: D, to: NEXT, timezone: 'UTC' }, dimension });
      expect(res.body.data.items).toHaveLength(expected.length);
      expect(res.body.data.items).toMatchObject(expected);
    }
  });

  it('answers at most `limit` rows', async () => {
    useClock(D0 + 5 * DAY);
    const res = await getBreakdown(mine, 'pages', { ...TWO_DAYS, limit: 1 });
    expect(res.body.data.items.map((i: any) => i.value)).toEqual(['/']);
  });
});

describe('GET /sites/{site_id}/analytics/funnel', () => {
  it('counts the sessions that went through the steps in order', async () => {
    useClock(D0 + 5 * DAY);
    const res = await getFunnel(mine, { ...TWO_DAYS, steps: 'add_to_cart,purchase' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({
      site_id: mine.siteId,
      range: { from: D, to: NEXT, timezone: 'UTC' },
      steps: [
        { name: 'add_to_cart', sessions: 2, conversion_rate: 1, drop_off: 0 },
        { name: 'purchase', sessions: 1, conversion_rate: 0.5, drop_off: 1 },
      ],
      filters: [],
    });
    // Out of order does not count: nobody bought before adding to the cart.
    const reversed = (await getFunnel(mine, { ...TWO_DAYS, steps: 'purchase,add_to_cart' })).body.data.steps;
    expect(reversed.map((s: any) => s.sessions)).toEqual([1, 0]);
    const none = (await getFunnel(mine, { ...TWO_DAYS, steps: 'nothing,purchase' })).body.data.steps;
    expect(none).toEqual([
      { name: 'nothing', sessions: 0, conversion_rate: null, drop_off: 0 },
      { name: 'purchase', sessions: 0, conversion_rate: null, drop_off: 0 },
    ]);
  });
});

describe('isolation between sites', () => {
  it("counts only the key's own site", async () => {
    useClock(D0 + 5 * DAY);
    const theirs = (await getOverview(other, TWO_DAYS)).body.data;
    expect(theirs.totals).toMatchObject({ visitors: 1, sessions: 1, page_views: 1, conversions: 1, new_leads: 0 });
    const sources = (await getBreakdown(other, 'utm_sources', TWO_DAYS)).body.data.items;
    expect(sources).toMatchObject([{ value: 'newsletter', sessions: 1, conversions: 1 }]);
    expect((await getBreakdown(other, 'downloads', TWO_DAYS)).body.data.items).toMatchObject([{ value: BROCHURE, visitors: 1, clicks: 1 }]);
    expect((await getBreakdown(other, 'outbound_links', TWO_DAYS)).body.data.items).toEqual([]);
    // Mine counted neither the other site's visit nor the crawler (conversions: 1, sessions: 3 above).
    expect((await getOverview(mine, TWO_DAYS)).body.data.totals).toMatchObject({ sessions: 3, conversions: 1 });
  });

  it("refuses another site's key and another site's id (403)", async () => {
    const foreignKey = await call(overviewRoute, {
      path: `/sites/${mine.siteId}/analytics/overview`,
      params: { site_id: mine.siteId },
      headers: presenters.xApiKey(other.key),
    });
    expect(foreignKey.status).toBe(403);
    expect(foreignKey.body.error.code).toBe('FORBIDDEN');
    const foreignSite = await call(funnelRoute, {
      path: `/sites/${other.siteId}/analytics/funnel`,
      params: { site_id: other.siteId },
      query: { steps: 'a,b' },
      headers: presenters.xApiKey(mine.key),
    });
    expect(foreignSite.status).toBe(403);
  });
});

describe('one notion of a visit', () => {
  it('the Overview, the Sessions list, GET /sites/{id}/stats and dailyStandUp count the same people and bots', async () => {
    // Noon of the second day: every session of the fixture started in the last 48 hours.
    useClock(D0 + DAY + 12 * HOUR);
    const people = { visitors: 2, sessions: 3 };
    const bots = { visitors: 1, sessions: 1 };

    const shown = await overview(mine.siteId, TWO_DAYS);
    expect({ visitors: shown.totals.visitors, sessions: shown.totals.sessions }).toEqual(people);
    expect(shown.bots).toEqual(bots);

    // The Sessions page: its list without bots (the default) and with them only, and the counts above it.
    const list = (bot: boolean) => siteSessions(mine.siteId, { bot, limit: 25, offset: 0 });
    const [humanRows, botRows] = await Promise.all([list(false), list(true)]);
    expect(humanRows.total).toBe(people.sessions);
    expect(new Set(humanRows.items.map((s) => s.visitor_id)).size).toBe(people.visitors);
    expect(humanRows.items.every((s) => !s.is_bot)).toBe(true);
    expect(botRows.total).toBe(bots.sessions);
    expect(botRows.items.every((s) => s.is_bot)).toBe(true);
    expect(await visits(mine.siteId)).toEqual({ humans: people, bots });

    const stats = await call(statsRoute, {
      path: `/sites/${mine.siteId}/stats`,
      params: { site_id: mine.siteId },
      headers: presenters.xApiKey(mine.readKey),
    });
    expect(stats.status, JSON.stringify(stats.body)).toBe(200);
    expect(stats.body.data.sessions).toMatchObject({ total: 4, humans: people.sessions, bots: bots.sessions });
    expect(stats.body.data.visitors).toMatchObject({ total: 3, humans: people.visitors, bots: bots.visitors });

    // The workflow's own definition over the real activities, as either engine runs it.
    const standUp = await workflowDefinitions.dailyStandUpWorkflow(
      {
        workflowId: 'stand-up',
        siteId: mine.siteId,
        activities: createActivities(),
        sleep: async () => {},
        waitForSignal: async () => undefined,
      },
      { site_id: mine.siteId, window_hours: 48 },
    );
    expect(standUp.figures).toMatchObject({
      visitors: people.visitors,
      sessions: people.sessions,
      bot_visitors: bots.visitors,
      bot_sessions: bots.sessions,
    });
    expect(standUp.summary.join(' ')).toContain('Visitors: 2 people in 3 sessions');
    expect(standUp.summary.join(' ')).toContain('1 bot visit left out.');
  });
});

describe('the Sessions list', () => {
  it('filters by UTM source whatever its case, and lists bots only when asked', async () => {
    const bySource = (utmSource: string, bot?: boolean) => siteSessions(mine.siteId, { utmSource, bot, limit: 25, offset: 0 });
    for (const source of ['newsletter', 'NEWSLETTER', 'NewsLetter']) {
      // A's first visit and the crawler's both came from the newsletter.
      expect((await bySource(source)).total, source).toBe(2);
      expect((await bySource(source, false)).items.map((s) => s.is_bot)).toEqual([false]);
    }
    expect((await bySource('newsletters')).total).toBe(0);
  });
});

describe('bad periods', () => {
  const bad: [string, Record<string, string | number>, string][] = [
    ['from after to', { from: '2026-11-22', to: '2026-11-21' }, 'query.from'],
    ['more than 366 days', { from: '2025-01-01', to: '2026-01-02' }, 'query.to'],
    ['a date that does not exist', { from: '2026-02-30', to: '2026-03-02' }, 'query.from'],
    ['not a date', { to: 'yesterday' }, 'query.to'],
    ['an ISO time instead of a date', { from: '2026-11-21T00:00:00Z' }, 'query.from'],
    ['a year out of range', { from: '0099-01-01' }, 'query.from'],
    ['an unknown time zone choice', { timezone: 'Europe/Madrid' }, 'query.timezone'],
    ['an unknown field', { since: '2026-11-01' }, 'query'],
    ['from in the future without to', { from: '2027-06-01' }, 'query.from'],
  ];

  it.each(bad)('%s → 400 naming the field', async (_why, query, field) => {
    useClock(D0 + 5 * DAY);
    for (const res of [
      await getOverview(mine, query as Record<string, string>),
      await getBreakdown(mine, 'pages', query),
      await getFunnel(mine, { steps: 'a,b', ...query } as Record<string, string>),
    ]) {
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({
        success: false,
        error: { code: 'INVALID_REQUEST', message: expect.stringContaining(field), details: { issues: expect.any(Array) } },
      });
      expect(res.body.error.details.issues.map((i: { path: string }) => i.path)).toContainEqual(
        expect.stringMatching(new RegExp(`^${field.replace('.', '\\.')}`)),
      );
    }
  });

  it('a breakdown with a bad limit or dimension, a funnel with too few or too many steps → 400 naming the field', async () => {
    const cases: [Promise<{ status: number; body: any }>, string][] = [
      [getBreakdown(mine, 'pages', { limit: 0 }), 'query.limit'],
      [getBreakdown(mine, 'pages', { limit: 101 }), 'query.limit'],
      [getBreakdown(mine, 'planets', {}), 'path.dimension'],
      [getFunnel(mine, { steps: 'purchase' }), 'query.steps'],
      [getFunnel(mine, { steps: Array.from({ length: 11 }, (_, i) => `s${i}`).join(',') }), 'query.steps'],
      [getFunnel(mine, { steps: 'a,,b' }), 'query.steps'],
      [getFunnel(mine, {}), 'query.steps'],
    ];
    for (const [pending, field] of cases) {
      const res = await pending;
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.details.issues[0].path).toMatch(new RegExp(`^${field.replace('.', '\\.')}`));
    }
  });

  it('timezone=site with a site time zone that is not an IANA zone → 400 naming timezone', async () => {
    const t = await createTenant();
    await updateSettings(t.siteId, { business_hours: { timezone: 'Mars/Olympus_Mons' } });
    const res = await getOverview(t, { timezone: 'site' });
    expect(res.status).toBe(400);
    expect(res.body.error.details.issues).toEqual([{ path: 'query.timezone', message: expect.stringContaining('Mars/Olympus_Mons') }]);
    // UTC still answers.
    expect((await getOverview(t, {})).status).toBe(200);
  });

  it('the service the console calls checks the same way', async () => {
    await expect(overview(mine.siteId, { from: '2026-11-22', to: '2026-11-21' })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      details: { issues: [{ path: 'query.from' }] },
    });
  });
});
