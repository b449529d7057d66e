import type { Server } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot, signIn as signInAs } from './browser';
import { api, eventually, pageOrigin, provision, serveShop, UA, type Shop } from './shop';

/**
 * The site owner's loop: the console waits for the first event, a visitor walks the three-page
 * shop with the tag (landing with utm, pricing, checkout, a purchase, identify), the visit is
 * recorded as one session, and the owner finds it in the console — on the overview's traffic
 * chart and top lists, in the sessions list with its timeline, and as a lead — at 1280 and 390 px.
 */
const APP = inject('e2eBaseUrl');

describe.skipIf(!APP)("the site owner's loop: a tracked visit found in the console", () => {
  let browser: Browser;
  let pages: Server;
  let shop: Shop;
  let owner: BrowserContext;
  let console1280: Page;
  let sessionId = '';
  let leadId = '';
  const site = () => `${APP}/console/sites/${shop.siteId}`;

  const signIn = (page: Page) => signInAs(page, APP, shop.owner);
  /** Elements that reach past the right edge of the screen, unless a box around them clips them (nothing should). */
  const overflowing = (page: Page) =>
    page.evaluate(() => {
      const clipped = (e: Element) => {
        for (let p = e.parentElement; p; p = p.parentElement) if (getComputedStyle(p).overflowX !== 'visible') return true;
        return false;
      };
      return [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && !clipped(e))
        .slice(0, 5)
        .map((e) => `${e.tagName.toLowerCase()}.${e.getAttribute('class') ?? ''} ${Math.round(e.getBoundingClientRect().right)}px`);
    });
  const currentSection = (page: Page) => page.locator('nav[aria-label="Site sections"] a[aria-current="page"]');

  beforeAll(async () => {
    shop = await provision(APP, '');
    pages = await serveShop(shop);
    browser = await launchBrowser();
    owner = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    console1280 = await owner.newPage();
    await signIn(console1280);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    pages?.closeAllConnections();
    await new Promise((r) => pages?.close(r));
  });

  it('opens on the overview, waiting for the first event with the tag and the API to copy', async () => {
    await console1280.goto(site());
    await console1280.getByRole('heading', { name: 'Waiting for the first event' }).waitFor();
    expect(await console1280.getByTestId('overview-snippet').textContent()).toContain(`data-site-id="${shop.siteId}"`);
    expect(await console1280.locator('main').textContent()).toContain("sgp.identify('ada@example.com'");
    expect(await currentSection(console1280).textContent()).toBe('Overview');
    await screenshot(console1280, 'owner-1280-waiting');
  });

  it('records the visit as one session with its page views, utm source and conversion', { timeout: 180_000 }, async () => {
    const visitor = await browser.newContext({ userAgent: UA });
    const tab = await visitor.newPage();
    const read = () => api(APP, 'GET', `/api/visitors/session?session_id=${sessionId}&site_id=${shop.siteId}`, undefined, shop.key);
    // The engagement each page left reports is timed by the page itself: counted apart (tests/e2e/tag.test.ts).
    const visited = (r: any) => (r.body.data?.events ?? []).filter((e: any) => e.event_type !== 'engagement');
    const recorded = (events: number, what: string) => eventually(read, (r) => visited(r).length >= events, what);
    await tab.goto(`${pageOrigin}/?utm_source=newsletter&utm_campaign=spring`);
    await tab.waitForFunction(() => (window as any).sgp?.session?.());
    const { session_id, visitor_id } = await tab.evaluate(() => (window as any).sgp.session());
    sessionId = session_id;
    await recorded(1, 'the landing page view');
    for (const [i, path] of ['/pricing', '/checkout'].entries()) {
      await tab.click(`nav a[href="${path}"]`);
      await tab.waitForURL(`${pageOrigin}${path}`);
      await recorded(i + 2, `the page view of ${path}`);
    }
    await tab.click('#buy');
    await tab.evaluate(() => (window as any).bought);
    await tab.fill('#email', 'ada@example.com');
    await tab.click('#who button');
    await tab.evaluate(() => (window as any).identified);
    expect((await tab.evaluate(() => (window as any).sgp.session())).session_id).toBe(sessionId);

    const visit = await eventually(read, (r) => visited(r).length >= 4 && r.body.data?.lead_id, 'the purchase and identify of the visit');
    expect(visit.body.data).toMatchObject({ page_views: 3, utm_source: 'newsletter', utm_campaign: 'spring', conversions: 1 });
    leadId = visit.body.data.lead_id;
    const history = await api(APP, 'GET', `/api/visitors/${visitor_id}/sessions?site_id=${shop.siteId}`, undefined, shop.key);
    expect(history.body.data.map((s: { session_id: string }) => s.session_id)).toEqual([sessionId]);
    await visitor.close();
  });

  it('turns the waiting overview live: figures, the traffic chart and the top lists', async () => {
    // The page left open above notices the first visit by itself.
    await console1280.getByRole('heading', { name: 'Traffic' }).waitFor({ timeout: 20_000 });
    // It turned live at the first page view; the figures of the whole visit are there on the next load.
    await console1280.reload();
    const figure = async (label: string) =>
      console1280
        .locator('.figures div', { has: console1280.locator(`dt:text-is("${label}")`) })
        .locator('dd')
        .textContent();
    expect(await figure('Visitors')).toBe('1');
    expect(await figure('Sessions')).toBe('1');
    expect(await figure('Page views')).toBe('3');
    expect(await figure('Conversions')).toBe('1');
    expect(await figure('New leads')).toBe('1');
    const chart = console1280.locator('svg[data-chart="wide"]');
    expect(await chart.getAttribute('aria-label')).toMatch(/^Visitors and page views per day/);
    expect(await chart.locator('path.line').count()).toBe(2);
    // The last day of the chart (today) holds the visit: 3 page views (its tooltip says so).
    expect(await console1280.locator('.chart-plot.wide .chart-tip').last().textContent()).toMatch(/, 3 page views$/);
    expect(await console1280.getByRole('list', { name: 'Top pages' }).locator('li').count()).toBe(3);
    await console1280.getByRole('link', { name: 'UTM sources' }).click();
    await console1280.waitForURL(/sources=utm_sources/);
    expect(await console1280.getByRole('list', { name: 'UTM sources' }).locator('li').first().textContent()).toContain('newsletter');
    await screenshot(console1280, 'owner-1280-overview');
  });

  it('finds the visit among the sessions, with its timeline of events', async () => {
    await console1280.getByRole('link', { name: 'Visitors', exact: true }).click();
    await console1280.waitForURL('**/sessions');
    const row = console1280.locator(`tr[data-row-id="${sessionId}"]`);
    expect(await row.locator('td[data-label="Source"]').textContent()).toBe('newsletter');
    expect(await row.locator('td[data-label="Pages"]').textContent()).toBe('3');
    expect(await row.locator('td[data-label="Conversions"]').textContent()).toBe('1');
    await screenshot(console1280, 'owner-1280-sessions');
    await row.locator('td').first().getByRole('link').click();
    await console1280.waitForURL(`**/sessions/${sessionId}`);
    const steps = (await console1280.getByTestId('session-timeline').locator('li > strong').allTextContents()).filter((s) => !s.startsWith('Left '));
    expect(steps).toEqual([
      'Viewed /?utm_source=newsletter&utm_campaign=spring',
      'Viewed /pricing',
      'Viewed /checkout',
      'conversion: purchase',
      'Submitted a form #who to /checkout',
    ]);
    expect(await currentSection(console1280).textContent()).toBe('Visitors');
    await screenshot(console1280, 'owner-1280-session');
  });

  it('finds the lead, with the visit, and moves it along the pipeline', async () => {
    await console1280.getByRole('link', { name: 'Leads', exact: true }).click();
    await console1280.waitForURL('**/leads');
    await console1280.getByLabel('Search', { exact: true }).fill('ADA@');
    await console1280.getByRole('button', { name: 'Search' }).click();
    await console1280.waitForURL('**/leads?search=*');
    const rows = console1280.locator('tbody tr');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-row-id')).toBe(leadId);
    await rows.first().getByRole('link').click();
    await console1280.waitForURL(`**/leads/${leadId}`);
    expect(await console1280.locator(`#visits-heading`).textContent()).toBe('Visits (1)');
    expect(await console1280.locator(`tr[data-row-id="${sessionId}"] td[data-label="Source"]`).textContent()).toBe('newsletter');

    await console1280.getByLabel('Status').selectOption('qualified');
    await console1280.getByRole('button', { name: 'Change status' }).click();
    await console1280.getByRole('status').filter({ hasText: 'Status is now qualified.' }).waitFor();
    const lead = await api(
      APP,
      'POST',
      '/api/agents/tools/leads/get',
      { site_id: shop.siteId, search: 'ada@example.com' },
      { 'x-api-key': shop.key['x-api-key'] },
    );
    expect(lead.body.leads.map((l: { id: string; status: string }) => [l.id, l.status])).toEqual([[leadId, 'qualified']]);

    await console1280.getByLabel('Email', { exact: true }).fill('not an email');
    await console1280.getByRole('button', { name: 'Save lead' }).click();
    await console1280.locator('#field-email-error').waitFor();
    expect(await console1280.getByLabel('Email', { exact: true }).inputValue()).toBe('not an email');
    await console1280.getByLabel('Email', { exact: true }).fill('ada@example.com');
    await console1280.getByLabel('Company').fill('Analytical Engines');
    await console1280.getByRole('button', { name: 'Save lead' }).click();
    await console1280.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await console1280.reload();
    expect(await console1280.locator('#lead-heading').textContent()).toContain('qualified');
    expect(await console1280.locator('main').textContent()).toContain('Analytical Engines');
    await screenshot(console1280, 'owner-1280-lead');
  });

  it('on a 390 px phone: every section in the grouped menu, the current one in view, the overview and the lead', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, storageState: await owner.storageState() });
    const page = await phone.newPage();
    await page.goto(site());
    await page.getByRole('heading', { name: 'Traffic' }).waitFor();
    // The menu sits behind its button on a phone.
    await page.locator('details.site-menu > summary').click();
    const menu = page.locator('nav[aria-label="Site sections"] a');
    const labels = await menu.allTextContents();
    expect(labels).toEqual(
      expect.arrayContaining([
        'Overview',
        'Visitors',
        'Leads',
        'Segments',
        'Conversations',
        'Commands',
        'Workflows',
        'API keys',
        'Business settings',
        'General',
      ]),
    );
    for (const link of await menu.all()) {
      const box = (await link.boundingBox())!;
      expect(box.x >= 0 && box.x + box.width <= 390, `${await link.textContent()} in view`).toBe(true);
    }
    expect(await currentSection(page).textContent()).toBe('Overview');
    await screenshot(page, 'owner-390-overview');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    expect(await overflowing(page)).toEqual([]);
    await page.goto(`${site()}/leads/${leadId}`);
    expect(await currentSection(page).textContent()).toBe('Leads');
    await screenshot(page, 'owner-390-lead');
    expect(await overflowing(page)).toEqual([]);
    await page.goto(`${site()}/sessions/${sessionId}`);
    await screenshot(page, 'owner-390-session');
    expect(await overflowing(page)).toEqual([]);
    await phone.close();
  });

  it("another owner's site and its objects are not found", async () => {
    const stranger = await provision(APP, '/other');
    const other = await browser.newContext();
    const page = await other.newPage();
    await page.goto(`${APP}/signin`);
    await page.getByLabel('Email').fill(stranger.owner.email);
    await page.getByLabel('Password').fill(stranger.owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/console');
    for (const path of ['', '/sessions', `/sessions/${sessionId}`, '/leads', `/leads/${leadId}`, '/segments', '/conversations', '/commands']) {
      expect((await page.goto(`${site()}${path}`))?.status(), path).toBe(404);
    }
    // Their own site does not show the first site's session or lead either.
    expect((await page.goto(`${APP}/console/sites/${stranger.siteId}/sessions/${sessionId}`))?.status()).toBe(404);
    expect((await page.goto(`${APP}/console/sites/${stranger.siteId}/leads/${leadId}`))?.status()).toBe(404);
    await other.close();
  });
});
