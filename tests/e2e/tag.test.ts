import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot } from './browser';
import { freePort } from './ports';
import { startServer, type RunningServer } from './server';
import { api, eventually, UA } from './shop';

/**
 * The tag as a modern site meets it, in headless Chromium: a single-page app (pushState routes,
 * back, a same-URL replaceState), a tagged button, a download, a long article read to its end, a
 * contact form, an excluded admin page and a partner link that navigates to another host — all of
 * it checked through the API as one session with its page views in order and each event. Then the
 * privacy modes: a browser sending Global Privacy Control, and a site in cookieless mode.
 */
const SUITE = inject('e2eBaseUrl');
const SECRET_EMAIL = 'secret.person@example.com';

interface Site {
  siteId: string;
  key: Record<string, string>;
  owner: { email: string; password: string };
}

/**
 * The app this suite runs against: a server of its own without the visitor routes' per-IP limit
 * (60/min), which every browser of the suite shares on its one loopback address.
 */
let APP = '';

/** A user and a site with `domain` on the running app, its key, and its tracking settings. */
async function provision(domain: string, tracking?: Record<string, boolean>): Promise<Site> {
  const email = `tag-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  const password = 'e2e password 123';
  await api(APP, 'POST', '/api/auth/signup', { email, password });
  const auth = { authorization: `Bearer ${(await api(APP, 'POST', '/api/auth/token', { email, password })).body.data.token}` };
  const siteId = (await api(APP, 'POST', '/api/visitors/sites', { name: `Tag ${domain}`, domain }, auth)).body.data.id;
  const apiKey = (await api(APP, 'POST', '/api/keys', { name: 'e2e', scopes: ['read', 'write'], site_id: siteId }, auth)).body.data.apiKey;
  const key = { 'x-api-key': apiKey, 'x-sa-api-key': apiKey };
  if (tracking) {
    const set = await api(APP, 'POST', '/api/agents/tools/updateSiteSettings', { site_id: siteId, action: 'update', tracking }, key);
    expect(set.status, JSON.stringify(set.body)).toBe(200);
  }
  return { siteId, key, owner: { email, password } };
}

const nav = (links: [string, string][]) => `<nav>${links.map(([href, label]) => `<a href="${href}">${label}</a>`).join(' ')}</nav>`;

/** The test site's pages (`partnerOrigin`: the other host an outbound link goes to). */
function page(path: string, partnerOrigin: string): { title: string; body: string; attrs?: string } | undefined {
  if (path === '/hash')
    return {
      title: 'Hash app',
      attrs: 'data-hash-routing="true"',
      body: nav([
        ['#/pricing', 'Pricing'],
        ['#/checkout', 'Checkout'],
      ]),
    };
  if (path === '/app' || path.startsWith('/app/'))
    return {
      title: 'App',
      body: `${nav([['/article', 'Article']])}
        <button id="to-pricing" onclick="history.pushState({}, '', '/app/pricing'); document.title = 'Pricing'">Pricing</button>
        <button id="to-checkout" onclick="history.pushState({}, '', '/app/checkout?step=2')">Checkout</button>
        <button id="same-url" onclick="history.replaceState({ again: true }, '', location.href)">Same URL</button>
        <button id="cta" data-sgp-event="cta" data-sgp-prop-plan="pro" data-sgp-prop-place="hero">Start trial</button>
        <a id="brochure" href="/files/brochure.pdf">Brochure</a>
        <a id="partner" href="${partnerOrigin}/partner">Our partner</a>`,
    };
  if (path === '/article')
    return { title: 'Article', body: `<article style="height: 6000px">A long read.</article>${nav([['/contact', 'Contact']])}` };
  if (path === '/contact')
    return {
      title: 'Contact',
      body: `<form id="contact" name="contact-us" method="post" action="/thanks">
          <input id="email" name="email" type="email"><input name="id" value="field-named-id"><button>Send</button></form>
        <form id="search" data-sgp-ignore method="post" action="/thanks"><input name="q"><button id="search-go">Search</button></form>`,
    };
  if (path === '/thanks') return { title: 'Thanks', body: nav([['/admin/settings', 'Admin']]) };
  if (path === '/admin/settings')
    return { title: 'Admin', body: `<button id="admin-cta" data-sgp-event="admin_click">Save</button>${nav([['/app', 'App']])}` };
  return undefined;
}

describe.skipIf(!SUITE)('the tag on a modern site, in headless Chromium', () => {
  let app: RunningServer;
  let browser: Browser;
  let pages: Server[] = [];
  let port: number;
  let shop: Site;
  let cookieless: Site;
  let hosts: Record<string, Site>;
  /** The session of the first test's visit, which the console test shows. */
  let visitSessionId = '';

  const origin = (host: string) => `http://${host}:${port}`;
  const readSession = (s: Site, id: string) => api(APP, 'GET', `/api/visitors/session?session_id=${id}&site_id=${s.siteId}`, undefined, s.key);
  const eventsOf = (s: Site, id: string, ok: (events: any[]) => boolean, what: string) =>
    eventually(
      () => readSession(s, id),
      (r) => Array.isArray(r.body.data?.events) && ok(r.body.data.events),
      what,
    ).then((r) => r.body.data);
  const sessionOf = async (tab: Page): Promise<{ session_id: string; visitor_id: string }> => {
    await tab.waitForFunction(() => (window as any).sgp?.session?.());
    return tab.evaluate(() => (window as any).sgp.session());
  };
  const count = (type: string) => (events: any[]) => events.filter((e) => e.event_type === type).length;

  beforeAll(async () => {
    app = await startServer(await freePort(), { RATE_LIMIT_BACKEND: 'none' }, 'server-tag');
    APP = app.url;
    port = await freePort();
    [shop, cookieless] = await Promise.all([provision(`127.0.0.1:${port}`), provision(`127.0.0.2:${port}`, { cookieless: true })]);
    hosts = { [`127.0.0.1:${port}`]: shop, [`127.0.0.2:${port}`]: cookieless };
    const handler = (req: IncomingMessage, res: import('node:http').ServerResponse) => {
      const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
      const site = hosts[url.host];
      req.resume();
      if (url.pathname === '/files/brochure.pdf') {
        res.writeHead(200, { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="brochure.pdf"' });
        return res.end('%PDF-1.4\n');
      }
      if (url.pathname === '/partner') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<!doctype html><title>Partner</title><h1>Partner</h1>');
      }
      const p = page(url.pathname, origin(url.hostname === '127.0.0.1' ? '127.0.0.2' : '127.0.0.1'));
      res.writeHead(p ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        p
          ? `<!doctype html><html><head><title>${p.title}</title>
            <script async src="${APP}/t.js" data-site-id="${site.siteId}" data-include-localhost data-exclude="/admin/*" ${p.attrs ?? ''}></script>
            </head><body><h1>${p.title}</h1>${p.body}</body></html>`
          : 'not found',
      );
    };
    for (const host of ['127.0.0.1', '127.0.0.2']) {
      const server = createServer(handler);
      await new Promise<void>((r) => server.listen(port, host, r));
      pages.push(server);
    }
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    for (const server of pages) {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
    pages = [];
    await app?.stop();
  });

  /** A fresh browser profile; `sent` collects the body of every request to the app. */
  async function context(init?: () => void): Promise<{ context: BrowserContext; sent: string[] }> {
    const ctx = await browser.newContext({ userAgent: UA, acceptDownloads: true, viewport: { width: 1280, height: 800 } });
    if (init) await ctx.addInitScript(init);
    const sent: string[] = [];
    ctx.on('request', (r) => {
      if (r.url().startsWith(APP)) sent.push(`${r.method()} ${r.url()} ${r.postData() ?? ''}`);
    });
    return { context: ctx, sent };
  }
  /** The page was visible for more than the tag's 1 s minimum: leaving it reports its engagement. */
  const dwell = (tab: Page) => tab.waitForTimeout(1200);

  it('records the whole visit as ONE session: SPA routes in order, engagement, clicks, a download, a form without its values', async () => {
    const { context: ctx, sent } = await context();
    const tab = await ctx.newPage();
    const o = origin('127.0.0.1');
    await tab.goto(`${o}/app`);
    const s = await sessionOf(tab);
    visitSessionId = s.session_id;
    await dwell(tab);
    await tab.click('#to-pricing');
    await dwell(tab);
    await tab.click('#to-checkout');
    await dwell(tab);
    await tab.click('#same-url');
    await tab.goBack();
    await tab.waitForURL(`${o}/app/pricing`);
    await tab.click('#cta');
    const download = tab.waitForEvent('download');
    await tab.click('#brochure');
    await download;
    await eventsOf(shop, s.session_id, (e) => count('pageview')(e) === 4 && count('download')(e) === 1 && count('custom')(e) === 1, 'the SPA views');
    await dwell(tab);

    // A long article, read to its end.
    await tab.click('a[href="/article"]');
    await tab.waitForURL(`${o}/article`);
    await sessionOf(tab);
    await tab.mouse.wheel(0, 3000);
    await tab.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await dwell(tab);
    await tab.click('a[href="/contact"]');
    await tab.waitForURL(`${o}/contact`);
    await sessionOf(tab);

    // The contact form: its email never travels. The ignored search form sends nothing.
    await tab.fill('#email', SECRET_EMAIL);
    await dwell(tab);
    await tab.click('#contact button');
    await tab.waitForURL(`${o}/thanks`);
    await sessionOf(tab);
    await dwell(tab);

    // The excluded admin page: no page view, no event; then back into the app and out to the partner.
    await tab.click('a[href="/admin/settings"]');
    await tab.waitForURL(`${o}/admin/settings`);
    await tab.click('#admin-cta');
    await tab.click('a[href="/app"]');
    await tab.waitForURL(`${o}/app`);
    await sessionOf(tab);
    await dwell(tab);
    await tab.click('#partner');
    await tab.waitForURL(`${origin('127.0.0.2')}/partner`);

    const visit = await eventsOf(
      shop,
      s.session_id,
      (e) => count('outbound')(e) === 1 && count('engagement')(e) === 8,
      'the outbound click and the last engagement',
    );
    const events = visit.events.map((e: any) => ({ type: e.event_type, path: new URL(e.url).pathname + new URL(e.url).search, ...e }));
    expect(events.filter((e: any) => e.type === 'pageview').map((e: any) => e.path)).toEqual([
      '/app',
      '/app/pricing',
      '/app/checkout?step=2',
      '/app/pricing',
      '/article',
      '/contact',
      '/thanks',
      '/app',
    ]);
    // Each page left reports its engagement before the next page view.
    expect(events.map((e: any) => (e.type === 'pageview' || e.type === 'engagement' ? `${e.type} ${e.path}` : e.type))).toEqual([
      'pageview /app',
      'engagement /app',
      'pageview /app/pricing',
      'engagement /app/pricing',
      'pageview /app/checkout?step=2',
      'engagement /app/checkout?step=2',
      'pageview /app/pricing',
      'custom',
      'download',
      'engagement /app/pricing',
      'pageview /article',
      'engagement /article',
      'pageview /contact',
      'form_submit',
      'engagement /contact',
      'pageview /thanks',
      'engagement /thanks',
      'pageview /app',
      'outbound',
      'engagement /app',
    ]);
    for (const e of events.filter((x: any) => x.type === 'engagement')) {
      expect(e.properties.engaged_ms).toBeGreaterThanOrEqual(0);
      expect(e.properties.engaged_ms).toBeLessThanOrEqual(60_000);
      expect(e.properties.scroll_depth).toBeGreaterThan(0);
    }
    expect(events.find((e: any) => e.type === 'engagement' && e.path === '/article').properties.scroll_depth).toBe(100);
    expect(events.find((e: any) => e.type === 'custom')).toMatchObject({ event_name: 'cta', properties: { plan: 'pro', place: 'hero' } });
    expect(events.find((e: any) => e.type === 'download').properties).toEqual({ href: `${o}/files/brochure.pdf` });
    expect(events.find((e: any) => e.type === 'outbound').properties).toEqual({ href: `${origin('127.0.0.2')}/partner` });
    expect(events.find((e: any) => e.type === 'form_submit').properties).toEqual({
      id: 'contact',
      name: 'contact-us',
      action: '/thanks',
      method: 'post',
    });
    expect(JSON.stringify(visit)).not.toContain('secret.person');
    expect(sent.join('\n')).not.toContain('secret.person');
    expect(sent.join('\n')).not.toContain('field-named-id');
    expect(sent.some((r) => r.includes('/admin/'))).toBe(false);
    // One session for the whole visit, started once.
    expect(sent.filter((r) => r.startsWith('POST') && r.includes('/api/visitors/session ')).length).toBe(1);

    // The new lists answer for the visit.
    const read = { 'x-api-key': shop.key['x-api-key'] };
    const pagesList = (await api(APP, 'GET', `/sites/${shop.siteId}/analytics/breakdown/pages?limit=20`, undefined, read)).body.data.items;
    expect(pagesList.find((i: any) => i.value === '/article')).toMatchObject({ page_views: 1, avg_scroll_depth: 100 });
    const outbound = (await api(APP, 'GET', `/sites/${shop.siteId}/analytics/breakdown/outbound_links`, undefined, read)).body.data.items;
    expect(outbound).toMatchObject([{ value: `${origin('127.0.0.2')}/partner`, visitors: 1, clicks: 1 }]);
    const exits = (await api(APP, 'GET', `/sites/${shop.siteId}/analytics/breakdown/exit_pages`, undefined, read)).body.data.items;
    expect(exits).toMatchObject([{ value: '/app', sessions: 1 }]);
    await ctx.close();
  });

  it("shows the visit on the owner's console: the lists behind their tabs, and the session's timeline in words (1280 and 390 px)", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const console_ = await ctx.newPage();
    await console_.goto(`${APP}/signin`);
    await console_.getByLabel('Email').fill(shop.owner.email);
    await console_.getByLabel('Password').fill(shop.owner.password);
    await console_.getByRole('button', { name: 'Sign in' }).click();
    await console_.waitForURL('**/console**');
    const overview = `${APP}/console/sites/${shop.siteId}`;
    await console_.goto(`${overview}?pages=exit_pages&clicks=outbound_links&devices=browsers`);
    const list = (name: string) => console_.getByRole('list', { name });
    await expect.poll(() => list('Exit pages').innerText()).toContain('/app');
    expect(await list('Outbound links').innerText()).toContain(`${origin('127.0.0.2')}/partner`);
    expect(await list('Browsers').innerText()).toContain('Chrome');
    await screenshot(console_, 'tag-overview-1280');
    await console_.getByRole('link', { name: 'Top pages' }).click();
    await console_.waitForURL(/pages=pages/);
    expect(await list('Top pages').innerText()).toMatch(/\/article\s+[\s\S]*100% scrolled/);
    await console_.getByRole('link', { name: 'Downloads' }).click();
    await console_.waitForURL(/clicks=downloads/);
    expect(await list('Downloads').innerText()).toContain('brochure.pdf');
    await console_.setViewportSize({ width: 390, height: 844 });
    await screenshot(console_, 'tag-overview-390');

    await console_.setViewportSize({ width: 1280, height: 900 });
    await console_.goto(`${overview}/sessions/${visitSessionId}`);
    const timeline = await console_.getByTestId('session-timeline').innerText();
    expect(timeline).toContain('Followed a link out to');
    expect(timeline).toMatch(/Left \/article after \d+s engaged, 100% scrolled/);
    expect(timeline).toContain('Submitted a form #contact to /thanks');
    expect(timeline).toContain('Downloaded');
    await screenshot(console_, 'tag-session-1280');
    await console_.setViewportSize({ width: 390, height: 844 });
    await screenshot(console_, 'tag-session-390');
    await console_.goto(`${overview}/snippet`);
    await screenshot(console_, 'tag-snippet-390');
    await ctx.close();
  });

  it('with data-hash-routing, each fragment route is a page view and a page of the lists', async () => {
    const { context: ctx } = await context();
    const tab = await ctx.newPage();
    const o = origin('127.0.0.1');
    await tab.goto(`${o}/hash#/`);
    const s = await sessionOf(tab);
    await tab.click('a[href="#/pricing"]');
    await tab.click('a[href="#/checkout"]');
    await tab.goBack();
    const visit = await eventsOf(shop, s.session_id, (e) => count('pageview')(e) === 4, 'four hash routes');
    expect(visit.events.filter((e: any) => e.event_type === 'pageview').map((e: any) => new URL(e.url).hash)).toEqual([
      '#/',
      '#/pricing',
      '#/checkout',
      '#/pricing',
    ]);
    const read = { 'x-api-key': shop.key['x-api-key'] };
    const pagesList = (await api(APP, 'GET', `/sites/${shop.siteId}/analytics/breakdown/pages?limit=50`, undefined, read)).body.data.items;
    expect(pagesList.find((i: any) => i.value === '/hash#/pricing')).toMatchObject({ page_views: 2 });
    await ctx.close();
  });

  it('an outbound click that navigates away reaches the server every time (20 clicks in 20 fresh pages)', async () => {
    const { context: ctx } = await context();
    const tab = await ctx.newPage();
    await tab.goto(`${origin('127.0.0.1')}/app`);
    const s = await sessionOf(tab);
    for (let i = 0; i < 20; i++) {
      if (i > 0) {
        await tab.goto(`${origin('127.0.0.1')}/app`);
        await sessionOf(tab);
      }
      await tab.click('#partner');
      await tab.waitForURL(`${origin('127.0.0.2')}/partner`);
    }
    await eventsOf(shop, s.session_id, (e) => count('outbound')(e) === 20, 'all 20 outbound clicks');
    await ctx.close();
  });

  it('a browser sending Global Privacy Control is counted without any stored id; its visit still spans its pages', async () => {
    const { context: ctx } = await context(() => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }));
    const tab = await ctx.newPage();
    await tab.goto(`${origin('127.0.0.1')}/app`);
    const first = await sessionOf(tab);
    await tab.click('a[href="/article"]');
    await tab.waitForURL(`${origin('127.0.0.1')}/article`);
    const second = await sessionOf(tab);
    expect(second.session_id).toBe(first.session_id);
    const visit = await eventsOf(shop, first.session_id, (e) => count('pageview')(e) === 2, 'both page views');
    expect(visit.fingerprint).toMatch(/^daily:/);
    expect(await tab.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('sgp')))).toEqual([]);
    await ctx.close();
  });

  it('a site in cookieless mode stores nothing in the browser; SPA routes and page loads stay one session', async () => {
    const { context: ctx } = await context();
    const tab = await ctx.newPage();
    const o = origin('127.0.0.2');
    await tab.goto(`${o}/app`);
    const first = await sessionOf(tab);
    await tab.click('#to-pricing');
    await tab.click('a[href="/article"]');
    await tab.waitForURL(`${o}/article`);
    expect((await sessionOf(tab)).session_id).toBe(first.session_id);
    const visit = await eventsOf(cookieless, first.session_id, (e) => count('pageview')(e) === 3, 'three page views');
    expect(visit.events.filter((e: any) => e.event_type === 'pageview').map((e: any) => new URL(e.url).pathname)).toEqual([
      '/app',
      '/app/pricing',
      '/article',
    ]);
    expect(visit.fingerprint).toMatch(/^daily:/);
    expect(await tab.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('sgp')))).toEqual([]);
    await ctx.close();
  });

  it('an owner opted out with ?sgp_opt_out=1 sends nothing from that browser, until ?sgp_opt_out=0', async () => {
    const { context: ctx, sent } = await context();
    const tab = await ctx.newPage();
    await tab.goto(`${origin('127.0.0.1')}/app?sgp_opt_out=1`);
    await tab.waitForFunction(() => (window as any).sgp?.__loaded);
    await tab.click('#cta');
    await tab.goto(`${origin('127.0.0.1')}/article`);
    await tab.waitForFunction(() => (window as any).sgp?.__loaded);
    expect(await tab.evaluate(() => localStorage.getItem('sgp_ignore'))).toBe('1');
    expect(sent.filter((r) => r.includes('/api/'))).toEqual([]);
    await tab.goto(`${origin('127.0.0.1')}/app?sgp_opt_out=0`);
    await sessionOf(tab);
    await ctx.close();
  });
});
