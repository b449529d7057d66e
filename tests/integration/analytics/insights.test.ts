import { beforeAll, describe, expect, it } from 'vitest';
import { GET as breakdownRoute } from '@/app/sites/[site_id]/analytics/breakdown/[dimension]/route';
import { GET as funnelRoute } from '@/app/sites/[site_id]/analytics/funnel/route';
import { GET as overviewRoute } from '@/app/sites/[site_id]/analytics/overview/route';
import { GET as realtimeRoute } from '@/app/sites/[site_id]/analytics/realtime/route';
import { DELETE as deleteGoalRoute, PATCH as patchGoalRoute } from '@/app/sites/[site_id]/goals/[goal_id]/route';
import { GET as listGoalsRoute, POST as createGoalRoute } from '@/app/sites/[site_id]/goals/route';
import { updateSettings } from '@/lib/settings/service';
import { presenters } from '@/tests/helpers/auth-matrix';
import { testClock } from '@/tests/helpers/clock';
import { call, type Tenant } from '@/tests/helpers/harness';
import { suiteTenants } from '@/tests/helpers/tenants';
import { BOT, IPHONE, UA, visitorBrowser } from '@/tests/helpers/visitor-browser';

/**
 * What an owner asks of the analytics beyond one period of one whole site: filters on every read
 * (each dimension and its negation, against a seeded site with known answers), comparison with the
 * period before or the year before (across a month end and a daylight-saving change), who is on the
 * site now, goals with revenue in two currencies, CSV downloads — and that a site sees only its own.
 */
const [shop, other, zoned] = suiteTenants(3);
const useClock = testClock();

const MIN = 60_000;
const HOUR = 60 * MIN;
const X = '2026-11-01';
const X0 = Date.parse(`${X}T00:00:00Z`);
const SITE = 'https://shop.example.com';

function browser(t: Tenant, ua = UA) {
  const { land, event } = visitorBrowser(t, useClock, ua);
  return {
    land,
    event,
    view: (at: number, path: string) => event(at, { event_type: 'pageview', url: SITE + path }),
    buy: (at: number, amount: number, currency: string) =>
      event(at, { event_type: 'conversion', event_name: 'purchase', url: `${SITE}/checkout`, properties: { revenue: { amount, currency } } }),
  };
}

const FORMULA = '=1+2';
const QUOTED = 'a,"b"';

/**
 * The shop's day (1 November, UTC): V1 from a newsletter via Google, in Germany, on a desktop, views
 * the home page and pricing, buys for 49.50 EUR; V2 on an iPhone from Hacker News, in the US, lands
 * on pricing and buys for 20 USD; V3 comes direct (no country) to a blog post from a campaign with
 * an odd name, signs up and buys for 10.25 EUR. A crawler buys too (left out); another site's
 * visitor buys for 5 EUR.
 */
beforeAll(async () => {
  const v1 = browser(shop);
  const landing = '/?utm_source=newsletter&utm_medium=email&utm_campaign=spring&utm_term=shoes&utm_content=hero';
  await v1.land(X0 + 10 * HOUR, { url: SITE + landing, referrer: 'https://www.google.com/search?q=shoes', location: { country: 'DE' } });
  await v1.view(X0 + 10 * HOUR, landing);
  await v1.view(X0 + 10 * HOUR + 2 * MIN, '/pricing');
  await v1.buy(X0 + 10 * HOUR + 3 * MIN, 49.5, 'EUR');

  const v2 = browser(shop, IPHONE);
  await v2.land(X0 + 11 * HOUR, { url: `${SITE}/pricing`, referrer: 'https://news.ycombinator.com/item?id=1', location: { country: 'US' } });
  await v2.view(X0 + 11 * HOUR, '/pricing');
  await v2.buy(X0 + 11 * HOUR + MIN, 20, 'usd');

  const v3 = browser(shop);
  const post = `/blog/post?utm_campaign=${encodeURIComponent(FORMULA)}&utm_content=${encodeURIComponent(QUOTED)}`;
  await v3.land(X0 + 12 * HOUR, { url: SITE + post });
  await v3.view(X0 + 12 * HOUR, post);
  await v3.view(X0 + 12 * HOUR + MIN, '/signup');
  await v3.event(X0 + 12 * HOUR + 2 * MIN, { event_type: 'custom', event_name: 'signup', url: `${SITE}/signup` });
  await v3.buy(X0 + 12 * HOUR + 3 * MIN, 10.25, 'EUR');

  const crawler = browser(shop, BOT);
  await crawler.land(X0 + 13 * HOUR, { url: `${SITE}/?utm_source=newsletter` });
  await crawler.view(X0 + 13 * HOUR, '/pricing');
  await crawler.buy(X0 + 13 * HOUR + MIN, 999, 'EUR');

  const elsewhere = browser(other);
  await elsewhere.land(X0 + 10 * HOUR, { url: `${SITE}/?utm_source=newsletter`, location: { country: 'DE' } });
  await elsewhere.view(X0 + 10 * HOUR, '/pricing');
  await elsewhere.buy(X0 + 10 * HOUR + MIN, 5, 'EUR');

  for (const [name, type, match] of [
    ['Purchase', 'conversion', 'purchase'],
    ['Signup', 'event', 'signup'],
    ['Pricing page', 'page', '/pricing*'],
  ]) {
    const res = await writeGoal(shop, createGoalRoute, 'POST', `/sites/${shop.siteId}/goals`, {}, { name, type, match });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
});

/** A read with its query string as given (filters repeat). */
function read(handler: typeof overviewRoute, t: Tenant, path: string, params: Record<string, string>, query: [string, string][]) {
  const search = new URLSearchParams(query).toString();
  return call(handler, { path: `${path}?${search}`, params: { site_id: t.siteId, ...params }, headers: presenters.xApiKey(t.readKey) });
}
const day = (extra: [string, string][] = []): [string, string][] => [['from', X], ['to', X], ...extra];
const filters = (...f: string[]): [string, string][] => f.map((v) => ['filter', v]);
const getOverview = (t: Tenant, query: [string, string][]) => read(overviewRoute, t, `/sites/${t.siteId}/analytics/overview`, {}, query);
const getBreakdown = (t: Tenant, dimension: string, query: [string, string][]) =>
  read(breakdownRoute, t, `/sites/${t.siteId}/analytics/breakdown/${dimension}`, { dimension }, query);

function writeGoal(
  t: Tenant,
  handler: typeof createGoalRoute,
  method: string,
  path: string,
  params: Record<string, string>,
  body?: unknown,
  key = t.key,
) {
  return call(handler, { method, path, params: { site_id: t.siteId, ...params }, body, headers: presenters.xApiKey(key) });
}

describe('filters', () => {
  // Each filter and its negation: the sessions they keep of V1, V2, V3.
  const cases: [string, number][] = [
    ['page:/pricing', 2],
    ['page:/blog/*', 1],
    ['entry_page:/pricing', 1],
    ['exit_page:/pricing', 2],
    ['referrer:google.com', 1],
    ['referrer:(none)', 1],
    ['utm_source:newsletter', 1],
    ['utm_medium:email', 1],
    ['utm_campaign:spring', 1],
    [`utm_campaign:${FORMULA}`, 1],
    ['utm_term:shoes', 1],
    ['utm_content:hero', 1],
    ['country:DE', 1],
    ['country:(none)', 1],
    ['device:mobile', 1],
    ['browser:Safari', 1],
    ['os:iOS', 1],
    ['goal:Signup', 1],
    ['goal:purchase', 3],
  ];
  it.each(cases)('%s keeps its sessions, and its negation the others', async (filter, kept) => {
    const res = await getOverview(shop, day(filters(filter)));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.filters).toEqual([filter]);
    expect(res.body.data.totals.sessions).toBe(kept);
    expect(res.body.data.totals.visitors).toBe(kept);
    expect(res.body.data.series[0].sessions).toBe(kept);
    const [dimension, value] = [filter.slice(0, filter.indexOf(':')), filter.slice(filter.indexOf(':') + 1)];
    const negated = await getOverview(shop, day(filters(`${dimension}!:${value}`)));
    expect(negated.status, JSON.stringify(negated.body)).toBe(200);
    expect(negated.body.data.totals.sessions).toBe(3 - kept);
  });

  it('unfiltered, the day has three sessions of people, their page views, conversions and revenue per currency', async () => {
    const res = await getOverview(shop, day());
    expect(res.body.data.totals).toMatchObject({ visitors: 3, sessions: 3, page_views: 5, conversions: 3 });
    expect(res.body.data.totals.revenue).toEqual([
      { currency: 'EUR', amount: 59.75 },
      { currency: 'USD', amount: 20 },
    ]);
    expect(res.body.data.series[0].revenue).toEqual(res.body.data.totals.revenue);
    expect(res.body.data.bots).toEqual({ visitors: 1, sessions: 1 });
  });

  it('several filters all apply; a page filter counts only that page’s views', async () => {
    expect((await getOverview(shop, day(filters('country:DE', 'utm_source:newsletter')))).body.data.totals.sessions).toBe(1);
    expect((await getOverview(shop, day(filters('country:DE', 'device:mobile')))).body.data.totals.sessions).toBe(0);
    const pricing = await getOverview(shop, day(filters('page:/pricing')));
    expect(pricing.body.data.totals).toMatchObject({ sessions: 2, page_views: 2, conversions: 2 });
    expect(pricing.body.data.totals.revenue).toEqual([
      { currency: 'EUR', amount: 49.5 },
      { currency: 'USD', amount: 20 },
    ]);
    const pages = await getBreakdown(shop, 'pages', day(filters('page:/pricing')));
    expect(pages.body.data.items.map((i: any) => [i.value, i.page_views])).toEqual([['/pricing', 2]]);
    const sources = await getBreakdown(shop, 'utm_sources', day(filters('country!:DE')));
    expect(sources.body.data.items.map((i: any) => [i.value, i.sessions])).toEqual([[null, 2]]);
    expect(sources.body.data.filters).toEqual(['country!:DE']);
  });

  it('filter the funnel and the realtime read', async () => {
    const funnel = await read(
      funnelRoute,
      shop,
      `/sites/${shop.siteId}/analytics/funnel`,
      {},
      day([['steps', 'signup,purchase'], ...filters('referrer:(none)')]),
    );
    expect(funnel.status, JSON.stringify(funnel.body)).toBe(200);
    expect(funnel.body.data.steps.map((s: any) => s.sessions)).toEqual([1, 1]);
    const none = await read(
      funnelRoute,
      shop,
      `/sites/${shop.siteId}/analytics/funnel`,
      {},
      day([['steps', 'signup,purchase'], ...filters('country:DE')]),
    );
    expect(none.body.data.steps.map((s: any) => s.sessions)).toEqual([0, 0]);
  });

  it('an unknown dimension, a filter without a value, another shape or an unknown goal is 400 naming query.filter', async () => {
    for (const bad of ['city:Berlin', 'country', 'country:', 'country!:', ':DE', 'goal:Nope', 'goal:(none)']) {
      const res = await getOverview(shop, day(filters(bad)));
      expect(res.status, bad).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
      expect(res.body.error.details.issues[0].path).toBe('query.filter');
      const b = await getBreakdown(shop, 'pages', day(filters(bad)));
      expect(b.status, bad).toBe(400);
    }
    const rt = await read(realtimeRoute, shop, `/sites/${shop.siteId}/analytics/realtime`, {}, filters('nope:1'));
    expect(rt.status).toBe(400);
    expect(rt.body.error.details.issues[0].path).toBe('query.filter');
  });
});

describe('goals and revenue', () => {
  it('the goals breakdown: sessions, visitors, conversions, conversion rate and revenue per currency of each goal', async () => {
    const res = await getBreakdown(shop, 'goals', day());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(
      res.body.data.items.map((i: any) => ({
        value: i.value,
        sessions: i.sessions,
        conversions: i.conversions,
        rate: i.conversion_rate,
        revenue: i.revenue,
      })),
    ).toEqual([
      {
        value: 'Purchase',
        sessions: 3,
        conversions: 3,
        rate: 1,
        revenue: [
          { currency: 'EUR', amount: 59.75 },
          { currency: 'USD', amount: 20 },
        ],
      },
      { value: 'Pricing page', sessions: 2, conversions: 2, rate: 0.6667, revenue: [] },
      { value: 'Signup', sessions: 1, conversions: 1, rate: 0.3333, revenue: [] },
    ]);
  });

  it('revenue by source: each currency apart, never converted', async () => {
    const res = await getBreakdown(shop, 'utm_sources', day());
    expect(res.body.data.items.map((i: any) => [i.value, i.revenue])).toEqual([
      [
        null,
        [
          { currency: 'USD', amount: 20 },
          { currency: 'EUR', amount: 10.25 },
        ],
      ],
      ['newsletter', [{ currency: 'EUR', amount: 49.5 }]],
    ]);
  });

  it('goals are managed per site: create, names unique whatever the case, update, delete; the read key only reads', async () => {
    const base = `/sites/${shop.siteId}/goals`;
    const listed = await call(listGoalsRoute, { path: base, params: { site_id: shop.siteId }, headers: presenters.xApiKey(shop.readKey) });
    expect(listed.status).toBe(200);
    expect(listed.body.data.goals.map((g: any) => g.name).sort()).toEqual(['Pricing page', 'Purchase', 'Signup']);

    const dup = await writeGoal(shop, createGoalRoute, 'POST', base, {}, { name: 'PURCHASE', type: 'event', match: 'x' });
    expect(dup.status).toBe(409);
    const badPath = await writeGoal(shop, createGoalRoute, 'POST', base, {}, { name: 'Thanks', type: 'page', match: 'thanks' });
    expect(badPath.status).toBe(400);
    expect(badPath.body.error.details.issues[0].path).toBe('body.match');
    const badType = await writeGoal(shop, createGoalRoute, 'POST', base, {}, { name: 'Thanks', type: 'click', match: '/x' });
    expect(badType.status).toBe(400);
    const extra = await writeGoal(shop, createGoalRoute, 'POST', base, {}, { name: 'Thanks', type: 'page', match: '/thanks', color: 'red' });
    expect(extra.status).toBe(400);
    const readOnly = await writeGoal(shop, createGoalRoute, 'POST', base, {}, { name: 'Thanks', type: 'page', match: '/thanks' }, shop.readKey);
    expect(readOnly.status).toBe(403);

    const created = await writeGoal(shop, createGoalRoute, 'POST', base, {}, { name: 'Thanks', type: 'page', match: '/thanks' });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const path = `${base}/${id}`;
    const renamed = await writeGoal(shop, patchGoalRoute, 'PATCH', path, { goal_id: id }, { name: 'Thank you' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'Thank you', type: 'page', match: '/thanks' });
    const clash = await writeGoal(shop, patchGoalRoute, 'PATCH', path, { goal_id: id }, { name: 'signup' });
    expect(clash.status).toBe(409);

    // Another site cannot see, change or delete it.
    const theirs = await call(listGoalsRoute, {
      path: `/sites/${other.siteId}/goals`,
      params: { site_id: other.siteId },
      headers: presenters.xApiKey(other.readKey),
    });
    expect(theirs.body.data.goals).toEqual([]);
    const swapped = await writeGoal(other, patchGoalRoute, 'PATCH', `/sites/${other.siteId}/goals/${id}`, { goal_id: id }, { name: 'Mine' });
    expect(swapped.status).toBe(404);
    expect((await writeGoal(other, deleteGoalRoute, 'DELETE', `/sites/${other.siteId}/goals/${id}`, { goal_id: id })).status).toBe(404);
    // Nor filter by it.
    const filtered = await getOverview(other, day(filters('goal:Thank you')));
    expect(filtered.status).toBe(400);

    expect((await writeGoal(shop, deleteGoalRoute, 'DELETE', path, { goal_id: id })).body.data).toEqual({ id, deleted: true });
    expect((await writeGoal(shop, deleteGoalRoute, 'DELETE', path, { goal_id: id })).status).toBe(404);
  });
});

describe('comparison', () => {
  beforeAll(async () => {
    await updateSettings(zoned.siteId, { business_hours: { timezone: 'Europe/Berlin' } } as never);
    // Berlin leaves summer time on 25 October 2026 (that day has 25 hours).
    const late = browser(zoned);
    await late.land(Date.parse('2026-10-25T23:30:00Z'), { url: `${SITE}/` }); // Berlin: 26 October, 00:30
    const early = browser(zoned);
    await early.land(Date.parse('2026-10-18T22:30:00Z'), { url: `${SITE}/` }); // Berlin: 19 October, 00:30 (summer time)
    const lastYear = browser(zoned);
    await lastYear.land(Date.parse('2025-10-27T12:00:00Z'), { url: `${SITE}/` });
  });
  const WEEK: [string, string][] = [
    ['from', '2026-10-26'],
    ['to', '2026-11-01'],
  ];

  it('compare=previous in the site’s time zone: the week before, across the daylight-saving change', async () => {
    const res = await getOverview(zoned, [...WEEK, ['timezone', 'site'], ['compare', 'previous']]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { comparison, totals } = res.body.data;
    expect(comparison.range).toEqual({ from: '2026-10-19', to: '2026-10-25', timezone: 'Europe/Berlin' });
    expect(totals.sessions).toBe(1);
    expect(comparison.totals.sessions).toBe(1);
    expect(comparison.series).toHaveLength(7);
    expect(comparison.series[0]).toMatchObject({ date: '2026-10-19', sessions: 1 });
    expect(comparison.change.sessions).toBe(0);
    expect(comparison.change.bounce_rate).toBe(0);
  });

  it('in UTC the same instants fall on other days', async () => {
    const res = await getOverview(zoned, [...WEEK, ['compare', 'previous']]);
    const { comparison, totals } = res.body.data;
    expect(comparison.range).toEqual({ from: '2026-10-19', to: '2026-10-25', timezone: 'UTC' });
    expect(totals.sessions).toBe(0);
    expect(comparison.totals.sessions).toBe(1);
    expect(comparison.series[6]).toMatchObject({ date: '2026-10-25', sessions: 1 });
    expect(comparison.change.sessions).toBe(-1);
  });

  it('compare=year: the same dates a year before; 29 February compares with 28 February', async () => {
    const res = await getOverview(zoned, [...WEEK, ['timezone', 'site'], ['compare', 'year']]);
    expect(res.body.data.comparison.range).toEqual({ from: '2025-10-26', to: '2025-11-01', timezone: 'Europe/Berlin' });
    expect(res.body.data.comparison.totals.sessions).toBe(1);
    expect(res.body.data.comparison.change.sessions).toBe(0);
    const leap = await getOverview(zoned, [
      ['from', '2028-02-29'],
      ['to', '2028-03-01'],
      ['compare', 'year'],
    ]);
    expect(leap.body.data.comparison.range).toMatchObject({ from: '2027-02-28', to: '2027-03-01' });
  });

  it('across a month end: the three days before 1 November are the end of October; filters apply to both periods', async () => {
    const res = await getOverview(shop, [['from', X], ['to', '2026-11-03'], ['compare', 'previous'], ...filters('country:DE')]);
    expect(res.body.data.comparison.range).toEqual({ from: '2026-10-29', to: '2026-10-31', timezone: 'UTC' });
    expect(res.body.data.totals.sessions).toBe(1);
    expect(res.body.data.comparison.totals.sessions).toBe(0);
    expect(res.body.data.comparison.change.sessions).toBeNull();
    const bad = await getOverview(shop, [...day(), ['compare', 'week']]);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.issues[0].path).toBe('query.compare');
  });
});

describe('GET /sites/{site_id}/analytics/realtime', () => {
  const getRealtime = (t: Tenant, query: [string, string][] = []) => read(realtimeRoute, t, `/sites/${t.siteId}/analytics/realtime`, {}, query);

  it('visitors active in the last 5 minutes, their pages, sources, countries, and page views per minute', async () => {
    // Just after V3 bought: V3 is on the site; V1 and V2 left over an hour before.
    const at = X0 + 12 * HOUR + 3 * MIN + 10_000;
    useClock(at);
    const res = await getRealtime(shop);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body.data;
    expect(data.visitors).toBe(1);
    expect(data.pages).toEqual([{ value: '/signup', visitors: 1 }]);
    expect(data.sources).toEqual([{ value: null, visitors: 1 }]);
    expect(data.countries).toEqual([{ value: null, visitors: 1 }]);
    expect(data.page_views_per_minute).toHaveLength(30);
    expect(data.page_views_per_minute[29].minute).toBe(X0 + 12 * HOUR + 3 * MIN);
    expect(data.page_views_per_minute.filter((m: any) => m.page_views > 0)).toEqual([
      { minute: X0 + 12 * HOUR, page_views: 1 },
      { minute: X0 + 12 * HOUR + MIN, page_views: 1 },
    ]);

    expect((await getRealtime(shop, filters('country:DE'))).body.data.visitors).toBe(0);
    expect((await getRealtime(shop, filters('goal:Signup'))).body.data.visitors).toBe(1);
    // Another site has nobody on it then.
    expect((await getRealtime(other)).body.data.visitors).toBe(0);
    // Ten minutes later V3 has gone quiet.
    useClock(at + 10 * MIN);
    expect((await getRealtime(shop)).body.data.visitors).toBe(0);
  });
});

describe('format=csv', () => {
  async function csv(t: Tenant, handler: typeof overviewRoute, path: string, params: Record<string, string>, query: [string, string][]) {
    const url = `http://localhost${path}?${new URLSearchParams(query)}`;
    const res = await handler(new Request(url, { headers: presenters.xApiKey(t.readKey) }), {
      params: Promise.resolve({ site_id: t.siteId, ...params }),
    });
    return { status: res.status, type: res.headers.get('content-type'), disposition: res.headers.get('content-disposition'), text: await res.text() };
  }

  /** The day's breakdown by `dimension` as CSV. */
  const breakdownCsv = (dimension: string) =>
    csv(shop, breakdownRoute, `/sites/${shop.siteId}/analytics/breakdown/${dimension}`, { dimension }, day([['format', 'csv']]));

  it('a breakdown as RFC 4180 CSV, with formulas neutralized and quotes doubled', async () => {
    const campaigns = await breakdownCsv('utm_campaigns');
    expect(campaigns.status).toBe(200);
    expect(campaigns.type).toBe('text/csv; charset=utf-8');
    expect(campaigns.disposition).toBe(`attachment; filename="analytics_utm_campaigns_${X}_${X}.csv"`);
    const lines = campaigns.text.split('\r\n');
    expect(lines[0]).toBe(
      'value,visitors,sessions,page_views,bounce_rate,avg_duration_ms,conversions,conversion_rate,clicks,avg_engaged_ms,avg_scroll_depth,revenue_EUR,revenue_USD',
    );
    expect(lines).toContain(`'${FORMULA},,1,2,0,180000,1,,,,,10.25,0`);
    expect(lines).toContain('spring,,1,2,0,180000,1,,,,,49.5,0');
    expect(lines.at(-1)).toBe('');
    const contents = await breakdownCsv('utm_contents');
    expect(contents.text).toContain('"a,""b""",');
  });

  it('the series as CSV, one record per day, filtered like the JSON', async () => {
    const series = await csv(shop, overviewRoute, `/sites/${shop.siteId}/analytics/overview`, {}, [
      ['from', X],
      ['to', '2026-11-02'],
      ['format', 'csv'],
      ...filters('country:DE'),
    ]);
    expect(series.status).toBe(200);
    expect(series.text).toBe(
      'date,visitors,sessions,page_views,bounce_rate,avg_duration_ms,conversions,new_leads,revenue_EUR\r\n' +
        `${X},1,1,2,0,180000,1,0,49.5\r\n` +
        '2026-11-02,0,0,0,,,0,0,0\r\n',
    );
    const bad = await csv(shop, overviewRoute, `/sites/${shop.siteId}/analytics/overview`, {}, [['format', 'xlsx']]);
    expect(bad.status).toBe(400);
    expect(bad.type).toContain('application/json');
  });
});
