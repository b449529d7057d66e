import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, PHONE, screenshot, signedUpPage } from './browser';
import { api, UA } from './shop';

const base = inject('e2eBaseUrl');

/**
 * The console as an owner opens it every morning, at 1280 and 390 px: a menu of the shop's daily
 * work with the developer tools in an area of their own (and the API behind each page there, not on
 * the owner's cards); on a phone a compact header whose Menu button opens the navigation, with
 * or without JavaScript, so the first figures are above the fold; charts whose labels never run
 * into each other and that show their own tooltips; long lists in pages; the tracker guide with
 * this app's origin in every snippet.
 */
describe.skipIf(!base)('the morning console: menu, phone header, charts, pages, tracker guide', () => {
  let browser: Browser;
  let owner: BrowserContext;
  let page: Page;
  const email = `morning-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'a long enough password';
  const domain = 'morning-shop.example';
  let siteId = '';
  let key: Record<string, string> = {};
  const site = (path = '') => `${base}/console/sites/${siteId}${path}`;
  const sectionLinks = (p: Page) => p.locator('nav[aria-label="Site sections"] a');
  const visibleTexts = async (p: Page) => {
    const out: string[] = [];
    for (const link of await sectionLinks(p).all()) if (await link.isVisible()) out.push((await link.textContent()) ?? '');
    return out;
  };
  /** Text boxes of the chart drawing shown that overlap one another (labels running into each other). */
  const collidingLabels = (p: Page) =>
    p.evaluate(() => {
      const svg = [...document.querySelectorAll<SVGSVGElement>('svg[data-chart]')].find((s) => s.checkVisibility());
      const boxes = [...(svg?.querySelectorAll('text') ?? [])].map((t) => ({ text: t.textContent, r: t.getBoundingClientRect() }));
      const hits: string[] = [];
      for (const [i, a] of boxes.entries())
        for (const b of boxes.slice(i + 1))
          if (a.r.left < b.r.right && b.r.left < a.r.right && a.r.top < b.r.bottom && b.r.top < a.r.bottom) hits.push(`${a.text} / ${b.text}`);
      return { labels: boxes.length, hits };
    });
  const sideways = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await signedUpPage(browser, base, email, password);
    owner = page.context();
    await owner.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const token = (await api(base, 'POST', '/api/auth/token', { email, password })).body.data.token;
    const auth = { authorization: `Bearer ${token}` };
    siteId = (await api(base, 'POST', '/api/visitors/sites', { name: 'Morning Shop', domain }, auth)).body.data.id;
    const created = await api(base, 'POST', '/api/keys', { name: 'morning', scopes: ['read', 'write'], site_id: siteId }, auth);
    key = { 'x-api-key': created.body.data.apiKey };
    // Four people visit three pages each today, from the shop's own pages.
    const from = { origin: `https://${domain}`, 'user-agent': UA };
    for (let v = 0; v < 4; v++) {
      const s = await api(
        base,
        'POST',
        '/api/visitors/session',
        { site_id: siteId, fingerprint: `morning-${v}-${siteId}`, url: `https://${domain}/` },
        from,
      );
      expect(s.status).toBeLessThan(300);
      for (const path of ['/', '/pricing', '/checkout']) {
        const t = await api(
          base,
          'POST',
          '/api/visitors/track',
          {
            site_id: siteId,
            session_id: s.body.data.session_id,
            visitor_id: s.body.data.visitor_id,
            event_type: 'pageview',
            url: `https://${domain}${path}`,
          },
          from,
        );
        expect(t.status).toBeLessThan(300);
      }
    }
    // More secrets than one page holds: each is also a line of the secrets' activity.
    for (let i = 0; i < 27; i++) {
      const r = await api(
        base,
        'POST',
        '/api/secure-tokens',
        { site_id: siteId, type: 'api_key', identifier: `partner-${String(i).padStart(2, '0')}`, value: `v-${i}` },
        key,
      );
      expect(r.status).toBe(201);
    }
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
  });

  it("puts the shop's daily work first and the developer tools in an area of their own", async () => {
    await page.goto(site());
    await page.getByRole('heading', { name: 'Traffic' }).waitFor();
    // Before: 18 links in one list of groups, keys and snippet between the leads and the settings.
    const group = (name: string) => page.getByRole('group', { name, exact: true }).getByRole('link');
    expect(await page.locator('.site-nav .nav-group-label').allTextContents()).toEqual(['Your shop', 'Automation', 'Settings', 'Developers']);
    expect(await group('Your shop').allTextContents()).toEqual(['Overview', 'Visitors', 'Leads', 'Segments', 'Conversations']);
    expect(await group('Automation').allTextContents()).toEqual(['Sequences', 'Workflows', 'Commands', 'Email', 'Finder', 'Instances']);
    expect(await group('Settings').allTextContents()).toEqual([
      'Business settings',
      'General',
      'Members',
      'Lead properties',
      'Goals',
      'Annotations',
      'Shared dashboards',
      'Email reports',
    ]);
    expect(await group('Developers').allTextContents()).toEqual([
      'API for each page',
      'API keys',
      'Tracking snippet',
      'Allowed origins',
      'Webhooks',
      'Platform apps',
      'Secrets',
    ]);
    // The area sits below every group of the shop, set apart by a rule.
    const developers = (await page.locator('.nav-developers').boundingBox())!;
    const settings = (await page.getByRole('group', { name: 'Settings', exact: true }).boundingBox())!;
    expect(developers.y).toBeGreaterThan(settings.y + settings.height);
    expect(await page.locator('.nav-developers').evaluate((e) => getComputedStyle(e).borderTopStyle)).toBe('solid');
    await screenshot(page, 'morning-1280-overview');
    await page.getByRole('link', { name: 'Tracking snippet', exact: true }).click();
    await page.waitForURL('**/snippet');
    expect(await page.locator('nav[aria-label="Site sections"] a[aria-current="page"]').textContent()).toBe('Tracking snippet');
  });

  it("keeps the API off the owner's cards: the Developers area lists the calls behind each page", async () => {
    for (const path of [
      '',
      '/sessions',
      '/leads',
      '/segments',
      '/conversations',
      '/commands',
      '/workflows',
      '/workflows/start',
      '/instances',
      '/finder',
    ]) {
      await page.goto(site(path));
      expect(await page.locator('main').textContent(), path || 'overview').not.toMatch(/as code/i);
    }
    await page.goto(site('/developers'));
    const row = page.locator('tbody tr', { has: page.getByRole('link', { name: 'Leads', exact: true }) });
    expect(await row.textContent()).toContain('POST /api/agents/tools/leads/get');
    expect(await page.locator('main').getByRole('link', { name: 'API reference' }).getAttribute('href')).toBe('/docs');
    expect(await page.getByTestId('developers-site-id').textContent()).toBe(siteId);
    await screenshot(page, 'morning-1280-developers');
  });

  it('on a phone: a compact header, the first figures above the fold, a Menu button that opens the navigation', async () => {
    const phone = await browser.newContext({ ...PHONE, storageState: await owner.storageState() });
    const p = await phone.newPage();
    await p.goto(site());
    await p.getByRole('heading', { name: 'Traffic' }).waitFor();
    // Before: the menu and the site id took the first ~550 px of every page.
    expect(await p.locator('nav[aria-label="Site sections"]').isVisible()).toBe(false);
    expect(await p.getByText(siteId, { exact: true }).isVisible()).toBe(false);
    const figures = await p.locator('dl.figures > div').all();
    for (const figure of figures.slice(0, 3)) expect((await figure.boundingBox())!.y + (await figure.boundingBox())!.height).toBeLessThan(844);
    // The account is not verified yet: its banner is one short band, the sentence beside its button.
    const banner = (await p.locator('.verify-banner').boundingBox())!;
    expect(banner.height).toBeLessThanOrEqual(64);
    const resend = (await p.locator('.verify-banner').getByRole('button', { name: 'Resend link' }).boundingBox())!;
    expect(resend.y).toBeLessThan(banner.y + banner.height / 2);
    const menu = p.locator('summary', { hasText: 'Menu' });
    expect(await menu.textContent()).toContain('Overview');
    await screenshot(p, 'morning-390-overview');

    await menu.click();
    const links = await visibleTexts(p);
    expect(links).toContain('Leads');
    for (const link of await sectionLinks(p).all())
      if (await link.isVisible()) {
        const box = (await link.boundingBox())!;
        expect(box.x >= 0 && box.x + box.width <= 390, `${await link.textContent()} in view`).toBe(true);
      }
    await screenshot(p, 'morning-390-menu-open');
    await p.getByRole('link', { name: 'Leads', exact: true }).click();
    await p.waitForURL('**/leads');
    // The menu folds again once a link was followed, and its button names the page.
    await p.waitForFunction(() => !document.querySelector('details.site-menu')?.hasAttribute('open'));
    expect(await menu.textContent()).toContain('Leads');

    // The keyboard opens it too: the button is focusable and Enter toggles it.
    await menu.focus();
    await p.keyboard.press('Enter');
    expect(await p.getByRole('link', { name: 'Conversations', exact: true }).isVisible()).toBe(true);
    await p.keyboard.press('Enter');
    expect(await p.getByRole('link', { name: 'Conversations', exact: true }).isVisible()).toBe(false);

    // The site's details are one tap away.
    await p.locator('details.site-info > summary').click();
    expect(await p.getByText(siteId, { exact: true }).isVisible()).toBe(true);
    expect(await sideways(p)).toBe(false);
    await phone.close();
  });

  it('on a phone without JavaScript the menu and the site details still open', async () => {
    const phone = await browser.newContext({ ...PHONE, javaScriptEnabled: false, storageState: await owner.storageState() });
    const p = await phone.newPage();
    await p.goto(site());
    expect(await p.locator('nav[aria-label="Site sections"]').isVisible()).toBe(false);
    await p.locator('summary', { hasText: 'Menu' }).click();
    await p.getByRole('link', { name: 'Commands', exact: true }).click();
    await p.waitForURL('**/commands');
    expect(await p.locator('summary', { hasText: 'Menu' }).textContent()).toContain('Commands');
    await p.locator('details.site-info > summary').click();
    expect(await p.getByText(siteId, { exact: true }).isVisible()).toBe(true);
    await screenshot(p, 'morning-390-no-js-commands');
    await phone.close();
  });

  it('draws charts whose labels never collide, fewer of them on a phone, with their own tooltips', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(site());
    // Before: every point carried a browser tooltip (<title>), and at 390 px "Nov 2" sat on "0".
    expect(await page.locator('svg[data-chart] circle title').count()).toBe(0);
    const wide = await collidingLabels(page);
    expect(wide.hits).toEqual([]);
    expect(await page.locator('.chart-plot.wide .x-label').count()).toBeLessThanOrEqual(7);
    const lastRow = await page.locator('.chart .visually-hidden tbody tr').last().locator('td').allTextContents();
    const lastDay = page.locator('.chart-plot.wide .chart-day').last();
    await lastDay.hover();
    const tip = lastDay.locator('.chart-tip');
    expect(await tip.isVisible()).toBe(true);
    expect(await tip.textContent()).toContain(`${lastRow[0]} visitors, ${lastRow[1]} page views`);
    await screenshot(page, 'morning-1280-chart-tooltip');

    // The keyboard walks the days; the day read out is the one shown.
    await page.locator('.chart-keys').focus();
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    const active = page.locator('.chart-plot.wide .chart-day.active');
    expect(await active.count()).toBe(1);
    expect(await active.locator('.chart-tip').isVisible()).toBe(true);
    expect(await page.locator('.chart-keys [aria-live]').textContent()).toBe(await active.textContent());

    const phone = await browser.newContext({ ...PHONE, storageState: await owner.storageState() });
    const p = await phone.newPage();
    await p.goto(site());
    await p.getByRole('heading', { name: 'Traffic' }).waitFor();
    expect(await p.locator('.chart-plot.narrow svg').isVisible()).toBe(true);
    expect(await p.locator('.chart-plot.wide svg').isVisible()).toBe(false);
    expect(await p.locator('.chart-plot.narrow .x-label').count()).toBeLessThanOrEqual(4);
    const narrow = await collidingLabels(p);
    expect(narrow.labels).toBeGreaterThan(3);
    expect(narrow.hits).toEqual([]);
    // Axis labels read at 11 px or more.
    const sizes = await p.locator('.chart-plot.narrow text').evaluateAll((ts) => ts.map((t) => t.getBoundingClientRect().height));
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(11);
    const phoneDay = p.locator('.chart-plot.narrow .chart-day').last();
    await phoneDay.tap();
    expect(await phoneDay.locator('.chart-tip').isVisible()).toBe(true);
    const tipBox = (await phoneDay.locator('.chart-tip').boundingBox())!;
    expect(tipBox.x >= 0 && tipBox.x + tipBox.width <= 390).toBe(true);
    await p.locator('.chart').scrollIntoViewIfNeeded();
    await screenshot(p, 'morning-390-chart-tooltip');
    await phone.close();
  });

  it('pages long lists: the secrets and their activity, 25 at a time', async () => {
    await page.goto(site('/secrets'));
    const secrets = page.locator('#secrets-heading').locator('xpath=ancestor::section[1]');
    expect(await secrets.locator('tbody tr').count()).toBe(25);
    expect(await secrets.locator('nav.pager').textContent()).toContain('1–25 of 27');
    await secrets.getByRole('link', { name: 'Older →' }).click();
    await page.waitForURL('**/secrets?offset=25');
    expect(await secrets.locator('tbody tr').count()).toBe(2);
    expect(await secrets.locator('nav.pager').textContent()).toContain('26–27 of 27');

    const activity = page.locator('#secret-audit-heading').locator('xpath=ancestor::section[1]');
    expect(await activity.locator('tbody tr').count()).toBe(25);
    await activity.getByRole('link', { name: 'Older →' }).click();
    await page.waitForURL(/activity=25/);
    // Each list keeps the other's page.
    expect(new URL(page.url()).searchParams.get('offset')).toBe('25');
    expect(await activity.locator('tbody tr').count()).toBe(2);
    await screenshot(page, 'morning-1280-secrets-paged');
  });

  it("has a tracker guide with this app's origin in every snippet and a copy button for each", async () => {
    await page.goto(site('/snippet'));
    for (const heading of ['Single-page apps', 'Goals and conversions', 'Identify a visitor', 'Consent', 'Serve the tag from your own domain'])
      expect(await page.getByRole('heading', { name: heading }).isVisible(), heading).toBe(true);
    expect(await page.getByTestId('tracking-snippet').textContent()).toBe(`<script src="${base}/t.js" data-site-id="${siteId}" async></script>`);
    for (const id of ['spa', 'consent', 'proxy']) {
      const text = (await page.getByTestId(`guide-${id}`).textContent())!;
      expect(text, id).toContain(`src="${id === 'proxy' ? `https://${domain}/sgp` : base}/t.js" data-site-id="${siteId}"`);
    }
    expect(await page.getByTestId('guide-proxy').textContent()).toContain(`proxy_pass ${base}/api/visitors/;`);
    expect(await page.getByTestId('guide-goals').textContent()).toContain("sgp.track({ event_type: 'conversion'");
    expect(await page.getByTestId('guide-identify').textContent()).toContain("sgp.identify('ada@example.com'");
    await page.getByRole('button', { name: 'Copy the proxy setup' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied' }).first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await page.getByTestId('guide-proxy').textContent());
    await screenshot(page, 'morning-1280-snippet-guide');

    const phone = await browser.newContext({ ...PHONE, storageState: await owner.storageState() });
    const p = await phone.newPage();
    await p.goto(site('/snippet'));
    expect(await sideways(p)).toBe(false);
    await screenshot(p, 'morning-390-snippet-guide');

    // The same guide at /docs/tracker: the signed-in owner's site, or a placeholder for anyone.
    await p.goto(`${base}/docs/tracker`);
    expect(await p.getByTestId('guide-install').textContent()).toBe(`<script src="${base}/t.js" data-site-id="${siteId}" async></script>`);
    expect(await sideways(p)).toBe(false);
    await screenshot(p, 'morning-390-docs-tracker');
    await phone.close();
    const anyone = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await anyone.goto(`${base}/docs`);
    await anyone.getByRole('link', { name: 'Tracker guide' }).click();
    await anyone.waitForURL('**/docs/tracker');
    expect(await anyone.getByTestId('guide-install').textContent()).toBe(`<script src="${base}/t.js" data-site-id="SITE_ID" async></script>`);
    await screenshot(anyone, 'morning-1280-docs-tracker');
    await anyone.close();
  });
});
