import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { siteGrowthClient } from '@/client';
import { walkthrough } from '@/client/walkthrough';
import { launchBrowser, screenshot } from './browser';

const base = inject('e2eBaseUrl');

describe.skipIf(!base)('the typed client against the built app', () => {
  it("runs the README walk-through's TypeScript twin", async () => {
    const result = await walkthrough(base!, `client-${randomBytes(4).toString('hex')}@example.com`);
    expect(result.sites.map((s) => s.id)).toEqual([result.siteId]);
    expect(result.session.page_views).toBeGreaterThanOrEqual(1);
    expect(result.found.map((l) => l.id)).toEqual([result.lead.id]);
  });

  it('reads errors as the typed error envelope', async () => {
    const { data, error, response } = await siteGrowthClient(base!, { headers: { 'X-API-Key': 'key_' + 'A'.repeat(43) } }).GET('/sites');
    expect(response.status).toBe(401);
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
  });
});

describe.skipIf(!base)('/docs, the API reference', () => {
  let browser: Browser;
  let page: Page;
  const outside: string[] = [];
  const email = `docs-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'a long enough password';
  let siteId = '';

  beforeAll(async () => {
    const pub = siteGrowthClient(base!);
    await pub.POST('/api/auth/signup', { body: { email, password, name: 'Docs reader' } });
    const token = (await pub.POST('/api/auth/token', { body: { email, password } })).data!.data.token;
    const owner = siteGrowthClient(base!, { headers: { authorization: `Bearer ${token}` } });
    siteId = (await owner.POST('/api/visitors/sites', { body: { name: 'Docs shop', domain: 'docs-shop.example.com' } })).data!.data.id;
    await owner.POST('/api/keys', { body: { name: 'Try-it key', scopes: ['read'], site_id: siteId } });

    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Offline by construction: nothing but this server is asked for anything.
    context.on('request', (req) => {
      if (!req.url().startsWith(base!) && !req.url().startsWith('data:') && !req.url().startsWith('blob:')) outside.push(req.url());
    });
    page = await context.newPage();
    await page.goto(`${base}/signin`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/console**');
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("renders the reference with the console header and the owner's site and key for try-it", { timeout: 180_000 }, async () => {
    await page.goto(`${base}/docs`);
    await page.getByRole('link', { name: 'Site Growth Platform' }).waitFor();
    // The pickers of the try-it form (the reference's own regions are labelled "… Site Growth Platform API" too).
    const picker = page.getByRole('form', { name: 'Try-it credentials' });
    await expect(picker.getByLabel(/^Site/).inputValue()).resolves.toBe(siteId);
    await expect(picker.getByLabel(/^Key/).locator('option').first().textContent()).resolves.toContain('Try-it key');
    await page.getByTestId('api-reference').getByText('Get a session token').first().waitFor({ timeout: 90_000 });
    await expect(page.getByRole('heading', { name: 'MCP tools' }).isVisible()).resolves.toBe(true);
    await expect(page.getByText('createLead').first().isVisible()).resolves.toBe(true);
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'docs-1280');
    expect(outside).toEqual([]);
  });

  it('fits a phone at 390 px', { timeout: 180_000 }, async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/docs`);
    // On a phone the reference folds its sidebar away: wait for the first tag's heading in the content (as the phone suite does).
    await page.getByTestId('api-reference').getByRole('heading', { name: 'Auth' }).first().waitFor({ timeout: 90_000 });
    await page.waitForLoadState('networkidle');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await screenshot(page, 'docs-390');
    expect(overflow).toBeLessThanOrEqual(0);
    expect(outside).toEqual([]);
  });
});
