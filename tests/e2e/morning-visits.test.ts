import type { Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deskAndPhone, launchBrowser, screenshot, signIn as signInAs } from './browser';
import { api, eventually, pageOrigin, provision, serveShop, UA, type Shop } from './shop';

/**
 * The owner's morning look at their visits: a headless browser and a script visit first (bots),
 * then people in two rounds while the Overview stays open. Each finding of the walk-through is
 * shown fixed: the waiting Overview does not turn live on a bot; left open it follows the visits;
 * bots are counted apart and said; the Overview, Sessions, GET /sites/{id}/stats and dailyStandUp
 * give the same people and bots; visitors read apart, a lead by name, ids one click away; the UTM
 * filter ignores case; a reversed period is read the right way round; the list stays compact on
 * a phone. Screenshots at 1280 and 390 px in test-results/e2e/visits-*.png.
 */
const APP = inject('e2eBaseUrl');

describe.skipIf(!APP)("the owner's morning: one notion of a visit, people not ids", () => {
  let browser: Browser;
  let pages: Server;
  let shop: Shop;
  let desk: Page;
  let phone: Page;
  const site = () => `${APP}/console/sites/${shop.siteId}`;
  const visitorIds: string[] = [];

  const signIn = (page: Page) => signInAs(page, APP, shop.owner);
  const figure = (page: Page, label: string) => page.locator('.figures div', { has: page.locator(`dt:text-is("${label}")`) }).locator('dd');
  const stats = () => api(APP, 'GET', `/sites/${shop.siteId}/stats`, undefined, shop.key);

  /** A visit of the shop by a browser of `userAgent` (Playwright's own headless one when undefined): lands, sees pricing. */
  async function visit(userAgent: string | undefined, landing: string, identify?: string): Promise<{ session_id: string; visitor_id: string }> {
    const context = await browser.newContext(userAgent ? { userAgent } : {});
    const tab = await context.newPage();
    await tab.goto(`${pageOrigin}${landing}`);
    await tab.waitForFunction(() => (window as any).sgp?.session?.());
    const ids = await tab.evaluate(() => (window as any).sgp.session());
    await tab.click('nav a[href="/pricing"]');
    await tab.waitForURL(`${pageOrigin}/pricing`);
    if (identify) {
      await tab.click('nav a[href="/checkout"]');
      await tab.fill('#email', identify);
      await tab.click('#who button');
      await tab.waitForFunction(() => (window as any).identified);
      await tab.evaluate(() => (window as any).identified);
    }
    const read = () => api(APP, 'GET', `/api/visitors/session?session_id=${ids.session_id}&site_id=${shop.siteId}`, undefined, shop.key);
    await eventually(read, (r) => r.body.data?.page_views >= (identify ? 3 : 2) && (!identify || r.body.data?.lead_id), 'the visit recorded');
    await context.close();
    visitorIds.push(ids.visitor_id);
    return ids;
  }

  beforeAll(async () => {
    shop = await provision(APP, '');
    pages = await serveShop(shop);
    browser = await launchBrowser();
    ({ desk, phone } = await deskAndPhone(browser, signIn));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    pages?.closeAllConnections();
    await new Promise((r) => pages?.close(r));
  });

  it('stays waiting when only bots visit (a headless browser, a script), and says so', { timeout: 120_000 }, async () => {
    await desk.goto(site());
    await desk.getByRole('heading', { name: 'Waiting for the first event' }).waitFor();
    // Playwright's headless Chromium, with its own User-Agent: a bot.
    const headless = await visit(undefined, '/');
    // A script calling the public session route as the tag does.
    const scripted = await fetch(`${APP}/api/visitors/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: pageOrigin, 'user-agent': 'python-requests/2.31.0' },
      body: JSON.stringify({ site_id: shop.siteId, url: `${pageOrigin}/`, fingerprint: 'scripted-visitor' }),
    });
    expect(scripted.status).toBeLessThan(300);
    visitorIds.push((await scripted.json()).data.visitor_id);
    const stored = await api(APP, 'GET', `/api/visitors/session?session_id=${headless.session_id}&site_id=${shop.siteId}`, undefined, shop.key);
    expect(stored.body.data.is_bot).toBe(true);
    // The page left open notices the visits by itself, and still waits: bots do not make it live.
    await desk.getByTestId('bots-waiting').waitFor({ timeout: 20_000 });
    expect(await desk.getByRole('heading', { name: 'Waiting for the first event' }).isVisible()).toBe(true);
    expect(await desk.getByRole('heading', { name: 'Traffic' }).count()).toBe(0);
    expect(await desk.getByTestId('bots-waiting').textContent()).toContain('Only bots have visited so far');
    await screenshot(desk, 'visits-1280-waiting-bots');
  });

  it('turns live on the first person, and follows a second round of visits while left open', { timeout: 180_000 }, async () => {
    await visit(UA, '/?utm_source=Newsletter&utm_campaign=spring');
    await desk.getByRole('heading', { name: 'Traffic' }).waitFor({ timeout: 20_000 });
    await eventually(
      async () => figure(desk, 'Visitors').textContent(),
      (v) => v === '1',
      'one visitor on the overview',
    );
    expect(await desk.getByTestId('bots-note').textContent()).toBe(
      'Counting people only: 2 bot visits (from 2 bots) left out of these figures — see them in Sessions.',
    );
    expect(await desk.getByTestId('live-note').textContent()).toContain('Live');
    // A second round: two more people, one of whom leaves her email. The page is not reloaded.
    await visit(UA, '/?utm_source=newsletter');
    await visit(
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
      '/',
      'ada@example.com',
    );
    await eventually(
      async () => figure(desk, 'Visitors').textContent(),
      (v) => v === '3',
      'three visitors on the open overview',
    );
    await eventually(
      async () => figure(desk, 'New leads').textContent(),
      (v) => v === '1',
      'the new lead on the open overview',
    );
    expect(await figure(desk, 'Sessions').textContent()).toBe('3');
    await screenshot(desk, 'visits-1280-overview');
    await phone.goto(site());
    expect(await figure(phone, 'Visitors').textContent()).toBe('3');
    await screenshot(phone, 'visits-390-overview');
  });

  it('gives the same people and bots on the Overview, Sessions, GET /sites/{id}/stats and dailyStandUp', { timeout: 120_000 }, async () => {
    const counted = await stats();
    expect(counted.status).toBe(200);
    expect(counted.body.data.sessions).toMatchObject({ total: 5, humans: 3, bots: 2 });
    expect(counted.body.data.visitors).toMatchObject({ humans: 3, bots: 2 });

    await desk.goto(`${site()}/sessions`);
    expect(await desk.getByTestId('visit-counts').textContent()).toBe('3 visits by 3 people · 2 bot visits not listed · Show bot traffic');
    expect(await desk.locator('table.stack tbody tr').count()).toBe(3);

    const started = await api(APP, 'POST', '/api/workflow/dailyStandUp', { site_id: shop.siteId }, shop.key);
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const run = await eventually(
      () => api(APP, 'GET', `/api/logs/workflows/${started.body.workflowId}?site_id=${shop.siteId}`, undefined, shop.key),
      (r) => r.body.data?.status !== 'RUNNING',
      'the stand-up run',
    );
    expect(run.body.data.status).toBe('COMPLETED');
    expect(run.body.data.result.figures).toMatchObject({ visitors: 3, sessions: 3, bot_visitors: 2, bot_sessions: 2 });
    expect(run.body.data.result.summary.join(' ')).toContain('Visitors: 3 people in 3 sessions');
    expect(run.body.data.result.summary.join(' ')).toContain('2 bot visits left out.');
  });

  it('labels bots in the list behind a "show bot traffic" toggle kept in the address', async () => {
    await desk.getByRole('link', { name: 'Show bot traffic' }).click();
    await desk.waitForURL(/bots=show/);
    expect(await desk.locator('table.stack tbody tr').count()).toBe(5);
    expect(await desk.locator('table.stack tbody tr .badge.bot').count()).toBe(2);
    expect(await desk.getByTestId('visit-counts').textContent()).toBe('3 visits by 3 people · 2 bot visits listed too · Hide bot traffic');
    await desk.reload();
    expect(await desk.locator('table.stack tbody tr .badge.bot').count()).toBe(2);
    expect(await desk.getByLabel('Show bot traffic').isChecked()).toBe(true);
    await screenshot(desk, 'visits-1280-sessions-bots');
    // The session's own page says it too.
    await desk
      .locator('table.stack tbody tr', { has: desk.locator('.badge.bot') })
      .first()
      .locator('td')
      .first()
      .getByRole('link')
      .click();
    await desk.waitForURL(/\/sessions\/[0-9a-f-]{36}$/);
    expect(await desk.locator('#session-heading .badge.bot').count()).toBe(1);
    await screenshot(desk, 'visits-1280-session-bot');
  });

  it('names visitors apart by a stable label, a lead by name; the full id one click away', async () => {
    await desk.goto(`${site()}/sessions?bots=show`);
    const visitorCells = await desk.locator('table.stack tbody td[data-label="Visitor"]').allTextContents();
    expect(visitorCells).toHaveLength(5);
    // Ids made in the same minute share their first 8 characters: the labels do not.
    expect(new Set(visitorIds.map((id) => id.slice(0, 8))).size).toBeLessThan(visitorIds.length);
    const named = visitorCells.filter((c) => !c.includes('Ada'));
    expect(new Set(named).size).toBe(named.length);
    for (const id of visitorIds) expect(visitorCells.join(' ')).not.toContain(id.slice(0, 8));
    expect(visitorCells).toContain('Ada Lovelace');
    // Two people and two bots read "Visitor <tag>…"; a bot is said once, by the badge of its row, not again in its label.
    const rows = desk.locator('table.stack tbody tr');
    const people = await rows
      .filter({ hasNot: desk.locator('.badge.bot') })
      .locator('td[data-label="Visitor"]')
      .allTextContents();
    expect(people.filter((c) => /^Visitor [0-9a-f]{6} · Chrome$/.test(c))).toHaveLength(2);
    const bots = await rows
      .filter({ has: desk.locator('.badge.bot') })
      .locator('td[data-label="Visitor"]')
      .allTextContents();
    expect(bots).toHaveLength(2);
    for (const label of bots) expect(label).toMatch(/^Visitor [0-9a-f]{6}/);
    expect(visitorCells.filter((c) => /bot/i.test(c))).toEqual([]);
    // A label links to all of that visitor's visits, where the full id is shown with a copy button.
    const person = desk.locator('table.stack tbody td[data-label="Visitor"] a', { hasText: /^Visitor / }).first();
    const title = await person.getAttribute('title');
    await person.click();
    await desk.waitForURL(/visitor=/);
    const id = title!.replace('Visitor ', '');
    expect(await desk.getByTestId('visitor-header').textContent()).toContain(id);
    expect(await desk.getByRole('button', { name: 'Copy id', exact: true }).count()).toBe(1);
    expect(await desk.locator('table.stack tbody tr').count()).toBe(1);
  });

  it('filters by UTM source whatever its case', async () => {
    for (const source of ['newsletter', 'NEWSLETTER', 'Newsletter']) {
      await desk.goto(`${site()}/sessions?source=${source}`);
      expect(await desk.locator('table.stack tbody tr').count(), source).toBe(2);
    }
    await screenshot(desk, 'visits-1280-sessions-utm');
  });

  it('reads a reversed period the right way round, in words', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const weekAgo = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
    await desk.goto(`${site()}?from=${today}&to=${weekAgo}`);
    const main = await desk.locator('main').textContent();
    expect(main).not.toContain('Invalid query');
    expect(main).toContain(`The start date was after the end date: showing ${weekAgo} to ${today}.`);
    expect(await figure(desk, 'Visitors').textContent()).toBe('3');
    await screenshot(desk, 'visits-1280-period-reversed');
    // A period longer than a year is refused in a sentence.
    await desk.goto(`${site()}?from=2020-01-01&to=${today}`);
    const refused = await desk.locator('main .form-error[role="alert"]').textContent();
    expect(refused).toBe(
      'The period may cover at most 366 days; from 2020-01-01 it ends at 2020-12-31 at the latest. Choose other dates, or one of the periods above.',
    );
    await screenshot(desk, 'visits-1280-period-refused');
  });

  it('keeps the list compact on a phone', async () => {
    await phone.goto(`${site()}/sessions?bots=show`);
    const rows = phone.locator('table.stack tbody tr');
    expect(await rows.count()).toBe(5);
    await screenshot(phone, 'visits-390-sessions');
    // A card of about five lines a visit (it was eleven labelled lines, ~590 px): a long landing address may wrap.
    const heights = await rows.evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().height));
    for (const height of heights) expect(height).toBeLessThan(220);
    expect(heights.reduce((a, b) => a + b, 0) / heights.length).toBeLessThan(180);
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    await phone
      .locator('table.stack tbody td[data-label="Visitor"] a', { hasText: /^Visitor / })
      .first()
      .click();
    await phone.waitForURL(/visitor=/);
    // A person's visits: the form follows the address (bots no longer shown).
    expect(await phone.getByLabel('Show bot traffic').isChecked()).toBe(false);
    expect(await phone.getByLabel('Visitor ID').inputValue()).toMatch(/^[0-9a-f-]{36}$/);
    await screenshot(phone, 'visits-390-visitor');
  });
});
