import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from './browser';

/**
 * The browser snippet end to end: a page on another origin (registered as the site's domain)
 * embeds /t.js from the running app; headless Chromium loads it; the API shows what happened.
 */
const APP = inject('e2eBaseUrl');
const PAGE_PORT = Number(process.env.E2E_PAGE_PORT ?? 3421);
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(APP + path, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < 100; i++) {
    last = await read();
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not happen; last seen: ${JSON.stringify(last)}`);
}

describe.skipIf(!APP)('browser snippet /t.js in headless Chromium', () => {
  let browser: Browser;
  let page: Server;
  let siteId: string;
  let key: Record<string, string>;
  const pageOrigin = `http://127.0.0.1:${PAGE_PORT}`;

  beforeAll(async () => {
    const email = `e2e-${Date.now()}@example.com`;
    const password = 'e2e password 123';
    await api('POST', '/api/auth/signup', { email, password });
    const token = (await api('POST', '/api/auth/token', { email, password })).body.data.token;
    const auth = { authorization: `Bearer ${token}` };
    siteId = (await api('POST', '/api/visitors/sites', { name: 'E2E shop', domain: `127.0.0.1:${PAGE_PORT}` }, auth)).body.data.id;
    const created = await api('POST', '/api/keys', { name: 'e2e', scopes: ['read', 'write'], site_id: siteId }, auth);
    key = { 'x-sa-api-key': created.body.data.apiKey };

    const html = `<!doctype html><html><head><title>Shop</title>
      <script async src="${APP}/t.js" data-site-id="${siteId}" data-ping-interval="1000"></script>
      </head><body><h1>Shop</h1></body></html>`;
    page = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
    });
    await new Promise<void>((r) => page.listen(PAGE_PORT, '127.0.0.1', r));
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    page?.closeAllConnections();
    await new Promise((r) => page?.close(r));
  });

  it('starts a session, sends a pageview and a custom event, pings activity, and ends on page hide via sendBeacon', async () => {
    const context = await browser.newContext({ userAgent: UA });
    const tab = await context.newPage();
    await tab.goto(`${pageOrigin}/products?utm_source=e2e`);
    await tab.waitForFunction(() => (window as any).sgp?.session?.());
    const session = await tab.evaluate(() => (window as any).sgp.session());
    expect(session).toMatchObject({ is_new_session: true, site_id: siteId });

    const read = () => api('GET', `/api/visitors/session?session_id=${session.session_id}&site_id=${siteId}`, undefined, key);
    await tab.evaluate(() => (window as any).sgp.track('signup_click', { plan: 'pro' }));
    const withEvents = await eventually(read, (r) => r.body.data?.events?.length === 2, 'pageview and custom event');
    expect(withEvents.body.data).toMatchObject({
      url: `${pageOrigin}/products?utm_source=e2e`,
      utm_source: 'e2e',
      is_bot: false,
      browser: { name: 'Chrome', version: '124.0.0.0' },
      device: { type: 'desktop', screen_size: expect.stringMatching(/^\d+x\d+$/) },
    });
    expect(withEvents.body.data.events.map((e: any) => [e.event_type, e.event_name, e.properties])).toEqual([
      ['pageview', null, null],
      ['custom', 'signup_click', { plan: 'pro' }],
    ]);

    // While the user is active, the activity ping (every second on this page) reports active time.
    let x = 0;
    await eventually(
      async () => {
        await tab.mouse.move((x = (x + 37) % 300), 100);
        return read();
      },
      (r) => r.body.data?.active_time > 0,
      'activity ping',
    );

    // Leaving the page fires pagehide → sendBeacon (text/plain, no preflight) to the end route.
    const endCalls: { type: string | undefined }[] = [];
    context.on('request', (r) => {
      if (r.url() === `${APP}/api/visitors/session/end`) endCalls.push({ type: r.headers()['content-type'] });
    });
    await tab.evaluate(() => {
      const send = navigator.sendBeacon.bind(navigator);
      navigator.sendBeacon = (url, data) => {
        localStorage.setItem('beacon', String(url));
        return send(url, data);
      };
    });
    await tab.goto('about:blank');
    const closed = await eventually(read, (r) => r.body.data?.status === 'closed', 'session end');
    expect(closed.body.data).toMatchObject({ exit_url: `${pageOrigin}/products?utm_source=e2e`, exit_type: 'exit', page_views: 1, duration: expect.any(Number) });
    // It went through navigator.sendBeacon (recorded by the wrapper above, read back on the same origin).
    await tab.goto(`${pageOrigin}/empty`);
    expect(await tab.evaluate(() => localStorage.getItem('beacon'))).toBe(`${APP}/api/visitors/session/end`);
    for (const call of endCalls) expect(call.type).toMatch(/^text\/plain/);
    await context.close();
  });

  it('reuses the active session across tabs of one browser profile, and chains a new one after the end', async () => {
    const context = await browser.newContext({ userAgent: UA });
    const open = async () => {
      const tab = await context.newPage();
      await tab.goto(`${pageOrigin}/`);
      await tab.waitForFunction(() => (window as any).sgp?.session?.());
      return { tab, session: await tab.evaluate(() => (window as any).sgp.session()) };
    };
    const first = await open();
    const second = await open();
    // Same fingerprint (first-party id in localStorage), same site: the active session is reused.
    expect(second.session).toMatchObject({ session_id: first.session.session_id, is_new_session: false });
    // Leaving both pages ends it; the next visit starts a new session chained to it, same visitor.
    await second.tab.goto('about:blank');
    await first.tab.goto('about:blank');
    const read = () => api('GET', `/api/visitors/session?session_id=${first.session.session_id}&site_id=${siteId}`, undefined, key);
    await eventually(read, (r) => r.body.data?.status === 'closed', 'session end');
    const third = await open();
    expect(third.session).toMatchObject({ is_new_session: true, visitor_id: first.session.visitor_id, previous_session_id: first.session.session_id });
    const foreign = await fetch(`${APP}/api/visitors/session`, { method: 'POST', headers: { origin: 'http://localhost:9', 'content-type': 'application/json' }, body: JSON.stringify({ site_id: siteId }) });
    expect(foreign.status).toBe(401);
    await context.close();
  });
});
