import { createServer, type Server } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from './browser';
import { freePort } from './ports';
import { startServer, type RunningServer } from './server';
import { api, eventually, PAGE_PORT, pageOrigin, provision, shopPage, UA, type Shop } from './shop';

/**
 * The tracking tag as a site owner uses it: pasted into a three-page shop (landing, pricing,
 * checkout, plus an account page with a logout) served on 127.0.0.1, loaded from the running app
 * in headless Chromium. What the visitor does in the browser is checked through the API.
 */
const APP = inject('e2eBaseUrl');
/** The inactivity limit of the app that shows sessions running out of time. */
const SHORT_IDLE_SECONDS = 6;

/**
 * The events of a visit other than the engagement each page left reports (its timing is the
 * page's own; tests/e2e/tag.test.ts checks it).
 */
const visited = (events: any[]) => events.filter((e) => e.event_type !== 'engagement');

const sessionOf = async (
  tab: Page,
): Promise<{ session_id: string; visitor_id: string; is_new_session: boolean; previous_session_id: string | null }> => {
  await tab.waitForFunction(() => (window as any).sgp?.session?.());
  return tab.evaluate(() => (window as any).sgp.session());
};

describe.skipIf(!APP)('the tracking tag in a three-page shop, in headless Chromium', () => {
  let browser: Browser;
  let pages: Server;
  let shop: Shop;
  let later: Shop;
  let app: RunningServer;
  let shortApp: RunningServer;

  const readSession = (s: Shop, id: string) => api(s.app, 'GET', `/api/visitors/session?session_id=${id}&site_id=${s.siteId}`, undefined, s.key);
  const sessionsOfVisitor = async (s: Shop, visitorId: string) =>
    (await api(s.app, 'GET', `/api/visitors/${visitorId}/sessions?site_id=${s.siteId}`, undefined, s.key)).body;
  const withEvents = (s: Shop, id: string, count: number, what: string) =>
    eventually(
      () => readSession(s, id),
      (r) => visited(r.body.data?.events ?? []).length >= count,
      what,
    ).then((r) => r.body.data);
  const open = async (context: BrowserContext, s: Shop, path: string) => {
    const tab = await context.newPage();
    await tab.goto(`${pageOrigin}${s.prefix}${path}`);
    return tab;
  };
  /** A visitor in a browser of their own landing on `path`: the tab and its session, once the page view is stored. */
  const landOn = async (s: Shop, path: string, what: string) => {
    const context = await browser.newContext({ userAgent: UA });
    const tab = await open(context, s, path);
    const session = await sessionOf(tab);
    await withEvents(s, session.session_id, 1, what);
    return { context, tab, session };
  };
  const follow = async (tab: Page, s: Shop, path: string) => {
    await tab.click(`nav a[href="${s.prefix}${path}"]`);
    await tab.waitForURL(`${pageOrigin}${s.prefix}${path}`);
  };

  beforeAll(async () => {
    // Every request of these tests comes from one loopback address, the browser's tag (pinging every second)
    // and the test's polling alike: the per-IP limit of the visitor routes (60/min) is off on both servers here.
    // The second has a short inactivity limit, for the test that waits it out.
    [app, shortApp] = await Promise.all([
      startServer(await freePort(), { RATE_LIMIT_BACKEND: 'none' }, 'server-snippet'),
      startServer(
        await freePort(),
        { SESSION_IDLE_TIMEOUT_SECONDS: String(SHORT_IDLE_SECONDS), RATE_LIMIT_BACKEND: 'none' },
        'server-short-sessions',
      ),
    ]);
    [shop, later] = await Promise.all([provision(app.url, '', 1000), provision(shortApp.url, '/later')]);
    pages = createServer((req, res) => {
      const url = new URL(req.url ?? '/', pageOrigin);
      const s = url.pathname.startsWith('/later') ? later : shop;
      const html = shopPage(s, url.pathname.slice(s.prefix.length) || '/');
      res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html ?? 'not found');
    });
    await new Promise<void>((r) => pages.listen(PAGE_PORT, '127.0.0.1', r));
    browser = await launchBrowser({ backForwardCache: true });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    pages?.closeAllConnections();
    await new Promise((r) => pages?.close(r));
    await Promise.all([app?.stop(), shortApp?.stop()]);
  });

  it('records a visit as ONE session: landing with utm, pricing, checkout, a purchase and identify', async () => {
    const context = await browser.newContext({ userAgent: UA });
    const calls: string[] = [];
    context.on('request', (r) => {
      if (r.url().startsWith(`${shop.app}/api/`)) calls.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
    const tab = await open(context, shop, '/?utm_source=newsletter&utm_campaign=spring');
    const landing = await sessionOf(tab);
    expect(landing).toMatchObject({ is_new_session: true, previous_session_id: null });
    await withEvents(shop, landing.session_id, 1, 'the landing page view');

    await follow(tab, shop, '/pricing');
    expect((await sessionOf(tab)).session_id).toBe(landing.session_id);
    await withEvents(shop, landing.session_id, 2, 'the pricing page view');
    await follow(tab, shop, '/checkout');
    expect((await sessionOf(tab)).session_id).toBe(landing.session_id);
    await withEvents(shop, landing.session_id, 3, 'the checkout page view');

    await tab.click('#buy');
    await tab.evaluate(() => (window as any).bought);
    await tab.fill('#email', 'Ada@Example.com');
    await tab.click('#who button');
    await tab.evaluate(() => (window as any).identified);

    // While the user is active, the activity ping (every second on these pages) reports the visible time.
    let x = 0;
    const pinged = await eventually(
      async () => {
        await tab.mouse.move((x = (x + 37) % 300), 100);
        return readSession(shop, landing.session_id);
      },
      (r) => r.body.data?.active_time > 0,
      'activity ping',
    );

    const visit = pinged.body.data;
    expect(visit).toMatchObject({
      status: 'active',
      url: `${pageOrigin}/?utm_source=newsletter&utm_campaign=spring`,
      utm_source: 'newsletter',
      utm_campaign: 'spring',
      page_views: 3,
      conversions: 1,
      lead_id: expect.any(String),
      current_url: `${pageOrigin}/checkout`,
      exit_type: null,
      is_bot: false,
      browser: { name: 'Chrome', version: '124.0.0.0' },
      device: { type: 'desktop', screen_size: expect.stringMatching(/^\d+x\d+$/) },
    });
    const events = visited(visit.events);
    expect(events.map((e: any) => [e.event_type, e.event_name, e.url])).toEqual([
      ['pageview', null, `${pageOrigin}/?utm_source=newsletter&utm_campaign=spring`],
      ['pageview', null, `${pageOrigin}/pricing`],
      ['pageview', null, `${pageOrigin}/checkout`],
      ['conversion', 'purchase', `${pageOrigin}/checkout`],
      // The receipt form: its id and where it goes, never the address typed into it.
      ['form_submit', null, `${pageOrigin}/checkout`],
    ]);
    expect(events[3].properties).toEqual({ value: 49, currency: 'EUR' });
    expect(events[4].properties).toEqual({ id: 'who', action: '/checkout', method: 'get' });

    // Exactly one session for the visitor, started once (on the landing page); nothing ended it.
    const history = await sessionsOfVisitor(shop, landing.visitor_id);
    expect(history.data.map((s: any) => s.session_id)).toEqual([landing.session_id]);
    expect(calls.filter((c) => c === 'POST /api/visitors/session')).toHaveLength(1);
    expect(calls.filter((c) => c.includes('/end'))).toEqual([]);
    // The lead is the identified person.
    const lead = await api(
      shop.app,
      'POST',
      '/api/agents/tools/leads/get',
      { site_id: shop.siteId, search: 'ada@example.com' },
      { 'x-api-key': shop.key['x-api-key'] },
    );
    expect(lead.body.leads.map((l: any) => [l.id, l.email, l.name])).toEqual([[visit.lead_id, 'ada@example.com', 'Ada Lovelace']]);

    // The analytics count the visit once, with its source and its purchase (this site has had no other visit yet).
    const read = { 'x-api-key': shop.key['x-api-key'] };
    const overview = await api(shop.app, 'GET', `/sites/${shop.siteId}/analytics/overview`, undefined, read);
    expect(overview.body.data.totals).toMatchObject({ visitors: 1, sessions: 1, page_views: 3, bounce_rate: 0, conversions: 1, new_leads: 1 });
    const sources = await api(shop.app, 'GET', `/sites/${shop.siteId}/analytics/breakdown/utm_sources`, undefined, read);
    expect(sources.body.data.items).toMatchObject([{ value: 'newsletter', sessions: 1, page_views: 3, conversions: 1 }]);
    const pages = await api(shop.app, 'GET', `/sites/${shop.siteId}/analytics/breakdown/pages`, undefined, read);
    expect(pages.body.data.items.map((i: any) => [i.value, i.page_views]).sort()).toEqual([
      ['/', 1],
      ['/checkout', 1],
      ['/pricing', 1],
    ]);
    await context.close();
  });

  it('keeps the session through a reload and the back/forward cache (a restored page is a page view)', async () => {
    const { context, tab, session: s } = await landOn(shop, '/pricing', 'the first page view');
    await tab.reload();
    expect((await sessionOf(tab)).session_id).toBe(s.session_id);
    await withEvents(shop, s.session_id, 2, 'the page view after the reload');

    await follow(tab, shop, '/checkout');
    await withEvents(shop, s.session_id, 3, 'the checkout page view');
    await tab.goBack({ waitUntil: 'commit' });
    // The pricing page comes back from the back/forward cache, not from the network.
    await tab.waitForFunction(() => document.documentElement.dataset.restored === '1');
    const visit = await withEvents(shop, s.session_id, 4, 'the page view of the restored page');
    expect(visited(visit.events).map((e: any) => new URL(e.url).pathname)).toEqual(['/pricing', '/pricing', '/checkout', '/pricing']);
    expect(visit).toMatchObject({ status: 'active', page_views: 4, current_url: `${pageOrigin}/pricing` });
    expect((await sessionsOfVisitor(shop, s.visitor_id)).data).toHaveLength(1);
    await context.close();
  });

  it('shares one session between two tabs of the site; switching tabs ends nothing', async () => {
    const { context, tab: first, session: s } = await landOn(shop, '/', 'the first tab page view');
    const second = await open(context, shop, '/pricing');
    expect((await sessionOf(second)).session_id).toBe(s.session_id);
    await first.bringToFront();
    await follow(first, shop, '/checkout');
    await second.bringToFront();
    await follow(second, shop, '/account');
    const visit = await withEvents(shop, s.session_id, 4, 'page views of both tabs');
    expect(visit).toMatchObject({ status: 'active', page_views: 4 });
    expect(
      visited(visit.events)
        .map((e: any) => new URL(e.url).pathname)
        .sort(),
    ).toEqual(['/', '/account', '/checkout', '/pricing']);
    expect((await sessionsOfVisitor(shop, s.visitor_id)).data).toHaveLength(1);
    await context.close();
  });

  it('sgp.end() ends the visit (a logout); the next page starts a new session chained to it', async () => {
    const { context, tab, session: s } = await landOn(shop, '/account', 'the account page view');
    await tab.click('#logout');
    const ended = await tab.evaluate(() => (window as any).ended);
    expect(ended).toMatchObject({ session_id: s.session_id, status: 'closed', exit_type: 'bounce', exit_url: `${pageOrigin}/account` });
    await follow(tab, shop, '/');
    const next = await sessionOf(tab);
    expect(next).toMatchObject({ is_new_session: true, visitor_id: s.visitor_id, previous_session_id: s.session_id });
    // Browsers of other origins are refused.
    const foreign = await fetch(`${shop.app}/api/visitors/session`, {
      method: 'POST',
      headers: { origin: 'http://localhost:9', 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: shop.siteId }),
    });
    expect(foreign.status).toBe(401);
    await context.close();
  });

  it('a visitor returning after the inactivity limit gets a new session chained to the one that timed out', async () => {
    const { context, tab, session: first } = await landOn(later, '/?utm_source=ads', 'the landing page view');
    // The inactivity limit of this app is a few seconds: wait until the session is gone.
    await eventually(
      () => readSession(later, first.session_id),
      (r) => r.status === 404,
      'the session running out of time',
    );

    await follow(tab, later, '/pricing');
    const second = await sessionOf(tab);
    expect(second).toMatchObject({ is_new_session: true, visitor_id: first.visitor_id, previous_session_id: first.session_id });
    await withEvents(later, second.session_id, 1, 'the page view of the new session');
    const [now, before] = (await sessionsOfVisitor(later, first.visitor_id)).data;
    expect(now).toMatchObject({ session_id: second.session_id, status: 'active', url: `${pageOrigin}/later/pricing`, utm_source: null });
    expect(before).toMatchObject({
      session_id: first.session_id,
      status: 'expired',
      exit_type: 'bounce',
      exit_url: `${pageOrigin}/later/?utm_source=ads`,
      utm_source: 'ads',
      page_views: 1,
    });
    expect(before.ended_at).toBe(before.last_activity_at);
    await context.close();
  });
});
