import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deskAndPhone, launchBrowser, screenshot, signIn as signInAs } from './browser';
import { api, eventually, pageOrigin, provision, UA, type Shop } from './shop';

/**
 * The owner asks the Overview questions: who came from Hacker News (a click on its row filters the
 * whole dashboard; the filter is a chip in the URL), how this period compares with the one before
 * (both lines on the chart, the change under each figure), who is on the site now, and takes a
 * table to a spreadsheet (a CSV download). Screenshots at 1280 and 390 px in
 * test-results/e2e/analytics-*.png.
 */
const APP = inject('e2eBaseUrl');
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

describe.skipIf(!APP)('the owner asks the analytics questions', () => {
  let browser: Browser;
  let shop: Shop;
  let desk: Page;
  let phone: Page;
  const site = () => `${APP}/console/sites/${shop.siteId}`;
  const figure = (page: Page, label: string) =>
    page
      .locator('.figures div', { has: page.locator(`dt:text-is("${label}")`) })
      .locator('dd')
      .first();

  /** A card of the page, by its title. */
  const card = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });

  const signIn = (page: Page) => signInAs(page, APP, shop.owner);

  /** A visit as the tag records it, sent through the visitor routes with the site's key. */
  async function visit(ua: string, landing: string, extra: Record<string, unknown>, revenue: { amount: number; currency: string }) {
    const headers = { ...shop.key, 'user-agent': ua };
    const started = await api(
      APP,
      'POST',
      '/api/visitors/session',
      { site_id: shop.siteId, url: pageOrigin + landing, fingerprint: `fp-${Math.random()}`, ...extra },
      headers,
    );
    expect(started.status, JSON.stringify(started.body)).toBeLessThan(300);
    const session_id = started.body.data.session_id;
    const track = (body: Record<string, unknown>) => api(APP, 'POST', '/api/visitors/track', { site_id: shop.siteId, session_id, ...body }, headers);
    expect((await track({ event_type: 'pageview', url: pageOrigin + landing })).status).toBe(201);
    expect((await track({ event_type: 'pageview', url: `${pageOrigin}/checkout` })).status).toBe(201);
    expect((await track({ event_type: 'conversion', event_name: 'purchase', url: `${pageOrigin}/checkout`, properties: { revenue } })).status).toBe(
      201,
    );
  }

  beforeAll(async () => {
    shop = await provision(APP, '');
    const goal = await api(APP, 'POST', `/sites/${shop.siteId}/goals`, { name: 'Purchase', type: 'conversion', match: 'purchase' }, shop.key);
    expect(goal.status, JSON.stringify(goal.body)).toBe(201);
    await visit(UA, '/?utm_source=newsletter', { location: { country: 'DE' } }, { amount: 49, currency: 'EUR' });
    await visit(
      IPHONE,
      '/pricing',
      { referrer: 'https://news.ycombinator.com/item?id=1', location: { country: 'US' } },
      { amount: 20, currency: 'USD' },
    );
    browser = await launchBrowser();
    ({ desk, phone } = await deskAndPhone(browser, signIn, { acceptDownloads: true }));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('sees the visitors on the site now, and the revenue of each currency apart', { timeout: 60_000 }, async () => {
    await desk.goto(site());
    await desk.getByRole('heading', { name: 'Traffic' }).waitFor();
    expect(await desk.getByTestId('visitors-now').textContent()).toBe('2 visitors now');
    expect(await figure(desk, 'Visitors').textContent()).toBe('2');
    expect(await figure(desk, 'Revenue').textContent()).toBe('€49.00 · $20.00');
    const goals = card(desk, 'Goals');
    expect(await goals.getByRole('link', { name: 'Purchase' }).count()).toBe(1);
    expect(await goals.textContent()).toContain('100% conversion rate');
  });

  it('filters the whole dashboard by clicking a row; the filter is a removable chip in the URL', { timeout: 60_000 }, async () => {
    await card(desk, 'Sources').getByRole('link', { name: 'news.ycombinator.com', exact: true }).click();
    await desk.waitForURL(/f=referrer%3Anews\.ycombinator\.com/);
    await desk.getByRole('list', { name: 'Filters' }).getByText('Referrer is news.ycombinator.com').waitFor();
    await eventually(
      () => figure(desk, 'Visitors').textContent(),
      (v) => v === '1',
      'one visitor from Hacker News',
    );
    expect(await figure(desk, 'Revenue').textContent()).toBe('$20.00');
    expect(await desk.getByTestId('visitors-now').textContent()).toBe('1 visitor now');
    // Every list answers for those visits only.
    expect(await card(desk, 'Countries & devices').getByRole('link').allTextContents()).toContain('US');
    expect(await card(desk, 'Countries & devices').textContent()).not.toContain('DE');
    await screenshot(desk, 'analytics-1280-filtered');
    // A second filter from another list: both apply.
    await card(desk, 'Countries & devices').getByRole('link', { name: 'US', exact: true }).click();
    await desk.waitForURL(/f=country%3AUS/);
    expect(await desk.getByRole('list', { name: 'Filters' }).getByRole('listitem').count()).toBe(3); // two chips and "Clear all"
    await desk.getByRole('link', { name: 'Clear all' }).click();
    await desk.getByText('Click a row of any list to see only those visits.').waitFor();
    expect(await figure(desk, 'Visitors').textContent()).toBe('2');
  });

  it('compares with the previous period: both lines on the chart, the change under each figure', { timeout: 60_000 }, async () => {
    await desk.getByRole('navigation', { name: 'Compare with' }).getByRole('link', { name: 'Previous period' }).click();
    await desk.waitForURL(/compare=previous/);
    await desk.locator('.chart .legend').getByText('Visitors, previous period').waitFor();
    const change = desk.locator('.figures div', { has: desk.locator('dt:text-is("Visitors")') }).locator('dd.change');
    expect(await change.textContent()).toBe('no figure before');
    await screenshot(desk, 'analytics-1280-compare');
  });

  it('downloads a table as CSV', { timeout: 60_000 }, async () => {
    const [download] = await Promise.all([
      desk.waitForEvent('download'),
      card(desk, 'Pages')
        .getByRole('link', { name: /Download/ })
        .click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^analytics_pages_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync((await download.path())!, 'utf8');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      'value,visitors,sessions,page_views,bounce_rate,avg_duration_ms,conversions,conversion_rate,clicks,avg_engaged_ms,avg_scroll_depth',
    );
    expect(lines).toContain('/checkout,,2,2,,,,,,,');
  });

  it('reads well on a phone', { timeout: 60_000 }, async () => {
    await phone.goto(`${site()}?compare=previous&f=${encodeURIComponent('country:US')}`);
    await phone.getByRole('heading', { name: 'Traffic' }).waitFor();
    await phone.getByRole('list', { name: 'Filters' }).getByText('Country is US').waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await screenshot(phone, 'analytics-390-filtered-compare');
    await phone.goto(`${site()}/goals`);
    await phone.getByRole('heading', { name: 'Add a goal' }).waitFor();
    await screenshot(phone, 'analytics-390-goals');
    await desk.goto(`${site()}/goals`);
    await screenshot(desk, 'analytics-1280-goals');
  });
});
