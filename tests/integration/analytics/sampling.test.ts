import { beforeAll, describe, expect, it } from 'vitest';
import { GET as breakdownRoute } from '@/app/sites/[site_id]/analytics/breakdown/[dimension]/route';
import { GET as overviewRoute } from '@/app/sites/[site_id]/analytics/overview/route';
import { rollUpSite } from '@/lib/analytics/rollups';
import { presenters } from '@/tests/helpers/auth-matrix';
import { testClock } from '@/tests/helpers/clock';
import { envFor } from '@/tests/helpers/env';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { visitorBrowser } from '@/tests/helpers/visitor-browser';

/**
 * Sampled filtered reads: past ANALYTICS_SAMPLE_SESSIONS a filtered read counts the sessions of the
 * visitors of the first samples (the last byte of their id, modulo 64) and scales every figure by the
 * inverse of their share; the answer says so. Known answers are computed here from the visitors' ids.
 */
const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const T0 = Date.parse('2026-11-20T00:00:00Z');
const SHOP = 'https://shop.example.com';
const COUNTRIES = ['DE', 'US', 'FR'];
const VISITS = 24;
const useClock = testClock();
const withEnv = envFor(['ANALYTICS_SAMPLE_SESSIONS']);
let site: Tenant;
let other: Tenant;

interface Visit {
  sample: number;
  visitorId: string;
  country: string;
  pageViews: number;
}
const visits: Visit[] = [];

const sampleOf = (uuid: string) => parseInt(uuid.slice(-2), 16) % 64;

const get = (t: Tenant, handler: typeof overviewRoute, path: string, params: Record<string, string>, query: Record<string, string | string[]>) =>
  call(handler, { path, params: { site_id: t.siteId, ...params }, query, headers: presenters.xApiKey(t.readKey) });
const getOverview = (t: Tenant, query: Record<string, string | string[]>) =>
  get(t, overviewRoute, `/sites/${t.siteId}/analytics/overview`, {}, query);
const getCountries = (t: Tenant, query: Record<string, string | string[]>) =>
  get(t, breakdownRoute, `/sites/${t.siteId}/analytics/breakdown/countries`, { dimension: 'countries' }, query);

const PERIOD = { from: '2026-11-17', to: '2026-11-19' };

beforeAll(async () => {
  [site, other] = [await createTenant(), await createTenant()];
  // One session per visitor over three finished days: a country each, one to three page views.
  for (let i = 0; i < VISITS; i++) {
    const browser = visitorBrowser(site, useClock);
    const at = T0 - 3 * DAY + i * 90 * MIN;
    const country = COUNTRIES[i % 3];
    const started = await browser.land(at, { url: `${SHOP}/`, location: { country } });
    const pageViews = 1 + (i % 4);
    await browser.event(at, { event_type: 'pageview', url: `${SHOP}/` });
    for (let k = 1; k < pageViews; k++) await browser.event(at + k * MIN, { event_type: 'pageview', url: `${SHOP}/pricing` });
    visits.push({ sample: sampleOf(started.visitor_id), visitorId: started.visitor_id, country, pageViews });
  }
  // The neighbour's visit is never counted here.
  await visitorBrowser(other, useClock).land(T0 - 2 * DAY, { url: `${SHOP}/`, location: { country: 'DE' } });
  useClock(T0 + 60 * MIN);
  await rollUpSite(site.siteId);
  await rollUpSite(other.siteId);
}, 120_000);

/**
 * The figures of the visits `keep` keeps, read from the visitors of the first `kept` samples and
 * scaled (page views: those `views` counts of a visit).
 */
function expected(keep: (v: Visit) => boolean, kept: number, views = (v: Visit) => v.pageViews) {
  const read = visits.filter((v) => keep(v) && v.sample < kept);
  const scale = 64 / kept;
  return {
    visitors: new Set(read.map((v) => v.visitorId)).size * scale,
    sessions: read.length * scale,
    page_views: read.reduce((n, v) => n + views(v), 0) * scale,
  };
}

describe('sampled filtered reads', () => {
  it('are exact below the limit, and say nothing of a sample', async () => {
    withEnv({});
    useClock(T0 + 60 * MIN);
    const res = await getOverview(site, { ...PERIOD, filter: 'country!:US' });
    expect(res.status).toBe(200);
    expect(res.body.data.sampled).toBeUndefined();
    expect(res.body.data.totals).toMatchObject(expected((v) => v.country !== 'US', 64));
  });

  it('past the limit read a share of the visitors, scale every figure, and say which share', async () => {
    // 24 sessions expected, read with their pages (a page filter: each counts as 6), at most 72 read: half of the
    // visitors (samples 0–31), figures doubled.
    withEnv({ ANALYTICS_SAMPLE_SESSIONS: '72' });
    useClock(T0 + 60 * MIN);
    const notUs = (v: Visit) => v.country !== 'US';
    const res = await getOverview(site, { ...PERIOD, filter: ['country!:US', 'page:/pricing'] });
    expect(res.status).toBe(200);
    expect(res.body.data.sampled).toEqual({ fraction: 0.5 });
    const pricing = (v: Visit) => v.pageViews - 1;
    expect(res.body.data.totals).toMatchObject(expected((v) => notUs(v) && pricing(v) > 0, 32, pricing));
    const perDay = res.body.data.series.reduce((n: number, d: { sessions: number }) => n + d.sessions, 0);
    expect(perDay).toBe(res.body.data.totals.sessions);

    // Filtered on one dimension (24 sessions, at most 12): the sessions and page views are the per-value sums kept
    // for it (exact); visitors are estimated.
    withEnv({ ANALYTICS_SAMPLE_SESSIONS: '12' });
    const one = await getOverview(site, { ...PERIOD, filter: 'country!:US' });
    expect(one.body.data.sampled).toEqual({ fraction: 0.5 });
    const { sessions, page_views } = expected(notUs, 64);
    expect(one.body.data.totals).toMatchObject({ visitors: expected(notUs, 32).visitors, sessions, page_views });

    // A quarter at 36 (24 × 6 with their pages); the breakdown's values scaled the same way.
    withEnv({ ANALYTICS_SAMPLE_SESSIONS: '36' });
    const countries = await getCountries(site, { ...PERIOD, filter: 'page:/pricing' });
    expect(countries.status).toBe(200);
    expect(countries.body.data.sampled).toEqual({ fraction: 0.25 });
    const viewedPricing = (v: Visit) => v.pageViews > 1;
    for (const country of COUNTRIES) {
      const item = countries.body.data.items.find((i: { value: string }) => i.value === country);
      const want = expected((v) => viewedPricing(v) && v.country === country, 16);
      if (want.sessions === 0) expect(item).toBeUndefined();
      else expect(item, country).toMatchObject({ sessions: want.sessions, page_views: want.page_views });
    }
  });

  it('a filter that keeps one value is expected to read that value’s sessions alone', async () => {
    // 8 German sessions of 24: within a limit of 8, exact.
    withEnv({ ANALYTICS_SAMPLE_SESSIONS: '8' });
    useClock(T0 + 60 * MIN);
    const res = await getOverview(site, { ...PERIOD, filter: 'country:DE' });
    expect(res.body.data.sampled).toBeUndefined();
    expect(res.body.data.totals).toMatchObject(expected((v) => v.country === 'DE', 64));
  });

  it('leave unfiltered reads, and the neighbour, exact', async () => {
    withEnv({ ANALYTICS_SAMPLE_SESSIONS: '1' });
    useClock(T0 + 60 * MIN);
    const all = await getOverview(site, PERIOD);
    expect(all.body.data.sampled).toBeUndefined();
    expect(all.body.data.totals).toMatchObject(expected(() => true, 64));
    const neighbour = await getOverview(other, { ...PERIOD, filter: 'country:DE' });
    expect(neighbour.body.data.totals).toMatchObject({ visitors: 1, sessions: 1, page_views: 0 });
    expect(neighbour.body.data.sampled).toBeUndefined();
  });
});
