import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot, signedUpPage } from './browser';

const base = inject('e2eBaseUrl');

/**
 * An owner notes a day on the chart, shares the dashboard behind a password, a stranger opens the
 * link (the password first, then the read-only Overview with the note), and once revoked the link
 * is gone. Screenshots at 1280 and 390 px.
 */
describe.skipIf(!base)('console: annotations and shared dashboards, end to end', () => {
  let browser: Browser;
  let owner: Page;
  let url = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await signedUpPage(browser, base!, `e2e-share-${randomBytes(4).toString('hex')}@example.com`, 'a long enough password');
    owner.setDefaultTimeout(90_000);
    await owner.getByLabel('Name').fill('Shared Shop');
    await owner.getByRole('button', { name: 'Create site' }).click();
    await owner.waitForURL('**/console/sites/*');
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('notes a day and makes a link with a password, shown once', { timeout: 240_000 }, async () => {
    await owner.getByRole('link', { name: 'Annotations' }).click();
    await owner.waitForURL('**/annotations');
    const today = new Date().toISOString().slice(0, 10);
    await owner.getByLabel('Day').fill(today);
    await owner.getByLabel('Note').fill('Newsletter sent');
    await owner.getByRole('button', { name: 'Add annotation' }).click();
    await owner.getByRole('cell', { name: 'Newsletter sent' }).first().waitFor();
    await screenshot(owner, '70-annotations-1280');

    await owner.getByRole('link', { name: 'Shared dashboards' }).click();
    await owner.waitForURL('**/sharing');
    await owner.getByLabel('Label').fill('Investors');
    await owner.getByLabel('Password').fill('open sesame 42');
    await owner.getByRole('button', { name: 'Make link' }).click();
    await owner.getByTestId('share-url').waitFor();
    url = (await owner.locator('[data-testid="share-url"] code').textContent())!.trim();
    expect(url).toMatch(/\/share\/sgp_share_[A-Za-z0-9_-]{43}$/);
    await owner.getByRole('cell', { name: 'Investors' }).first().waitFor();
    await screenshot(owner, '71-sharing-1280');

    await owner.getByRole('link', { name: 'Email reports' }).click();
    await owner.waitForURL('**/reports');
    await owner.getByLabel('Weekly').check();
    await owner.getByLabel('Traffic-spike alert: visitors in 5 minutes above').fill('50');
    await owner.getByRole('button', { name: 'Save' }).click();
    await owner.getByText('Saved.').waitFor();
    await screenshot(owner, '73-reports-1280');
  });

  it('a stranger gives the password and sees the read-only dashboard, never indexed', { timeout: 240_000 }, async () => {
    const head = await fetch(url);
    expect(head.status).toBe(200);
    expect(head.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(head.headers.get('referrer-policy')).toBe('no-referrer');
    for (const width of [1280, 390]) {
      const stranger = await (await browser.newContext({ viewport: { width, height: 860 } })).newPage();
      stranger.setDefaultTimeout(90_000);
      await stranger.goto(url);
      expect(await stranger.locator('meta[name="robots"]').getAttribute('content')).toContain('noindex');
      await stranger.getByLabel('Password').fill('wrong password');
      await stranger.getByRole('button', { name: 'Show the dashboard' }).click();
      await stranger.locator('#field-password-error').waitFor();
      await stranger.getByLabel('Password').fill('open sesame 42');
      await stranger.getByRole('button', { name: 'Show the dashboard' }).click();
      await stranger.getByRole('heading', { name: 'Shared Shop', exact: true }).waitFor();
      await stranger.locator('dl.figures').waitFor();
      await screenshot(stranger, `72-shared-dashboard-${width}`);
      expect(await stranger.locator('.chart-note').count()).toBeGreaterThan(0);
      expect(await stranger.locator('a[href^="/console"]').count()).toBe(0);
      await stranger.context().close();
    }
  });

  it('revoked, the link answers 404', { timeout: 180_000 }, async () => {
    await owner.getByRole('link', { name: 'Shared dashboards' }).click();
    await owner.waitForURL('**/sharing');
    await owner.getByRole('button', { name: 'Revoke' }).click();
    await owner.getByRole('dialog').getByRole('button', { name: 'Revoke link' }).click();
    await owner.getByText('No shared links yet.').waitFor();
    expect((await fetch(url)).status).toBe(404);
  });
});
