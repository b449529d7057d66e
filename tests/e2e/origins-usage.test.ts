import { randomBytes, randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openConsolePage, screenshot, signUp } from './browser';

const base = inject('e2eBaseUrl');

/** A browser-style tracking call from `origin`: the answer's Access-Control-Allow-Origin, if any. */
async function corsGrantFor(siteId: string, origin: string) {
  const res = await fetch(`${base}/api/visitors/session`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify({ site_id: siteId }),
  });
  await res.arrayBuffer();
  return res.headers.get('access-control-allow-origin');
}

const activeElementId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? null);

describe.skipIf(!base)('console: allowed origins and key usage, end to end', () => {
  let browser: Browser;
  let page: Page;
  let siteId = '';
  let apiKey = '';

  beforeAll(async () => {
    ({ browser, page } = await openConsolePage());
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('creates a site with an extra allowed origin, checked like the API checks it', async () => {
    await signUp(page, base, `e2e-origins-${randomBytes(4).toString('hex')}@example.com`);

    await page.getByLabel('Name').fill('Origin Shop');
    await page.getByLabel('Domain (optional)').fill('shop.example.com');
    const origins = page.getByLabel('Other allowed origins (optional)');
    await origins.fill('https://app.example.com/checkout');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.locator('#field-origins-error').waitFor();
    expect(await page.locator('#field-origins-error').textContent()).toBe(
      'Line 1 “https://app.example.com/checkout”: Must be an origin such as https://app.example.com (http or https, no path)',
    );
    expect(await origins.getAttribute('aria-invalid')).toBe('true');
    expect(await origins.inputValue()).toBe('https://app.example.com/checkout');
    await screenshot(page, '20-create-site-origin-error');

    await origins.fill('https://App.Example.com');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.waitForURL('**/console/sites/*');
    siteId = new URL(page.url()).pathname.split('/').pop()!;
    expect(await corsGrantFor(siteId, 'https://app.example.com')).toBe('https://app.example.com');
  });

  it('lists, adds and removes allowed origins, and the tracking routes follow', async () => {
    await page.getByRole('link', { name: 'Allowed origins' }).click();
    await page.waitForURL('**/origins');
    expect(await page.getByRole('link', { name: 'Allowed origins' }).getAttribute('aria-current')).toBe('page');
    const listed = () => page.locator('tbody tr td.mono').allTextContents();
    expect(await listed()).toEqual([
      'https://shop.example.com',
      'http://shop.example.com',
      'https://www.shop.example.com',
      'http://www.shop.example.com',
      'https://app.example.com',
    ]);

    const field = page.getByLabel('Origin', { exact: true });
    await field.fill('ftp://files.example.com');
    await page.getByRole('button', { name: 'Add origin' }).click();
    await page.locator('#field-origin-error').waitFor();
    expect(await page.locator('#field-origin-error').textContent()).toContain('Must be an origin such as');
    expect(await field.inputValue()).toBe('ftp://files.example.com');

    await field.fill('http://localhost:5173');
    await page.getByRole('button', { name: 'Add origin' }).click();
    await page.getByRole('status').filter({ hasText: 'Added http://localhost:5173' }).waitFor();
    expect(await listed()).toContain('http://localhost:5173');
    expect(await field.inputValue()).toBe('');
    expect(await page.locator('#field-origin-error').count()).toBe(0);
    expect(await corsGrantFor(siteId, 'http://localhost:5173')).toBe('http://localhost:5173');

    await field.fill('HTTP://LOCALHOST:5173/');
    await page.getByRole('button', { name: 'Add origin' }).click();
    await page.locator('#field-origin-error').waitFor();
    expect(await page.locator('#field-origin-error').textContent()).toBe('This origin is already allowed for the site');
    await screenshot(page, '21-origins');

    const row = page.locator('tbody tr', { hasText: 'http://localhost:5173' });
    await row.getByRole('button', { name: 'Remove http://localhost:5173' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove http://localhost:5173?' });
    await dialog.waitFor();
    await screenshot(page, '22-origin-remove-confirm');
    await dialog.getByRole('button', { name: 'Remove origin' }).click();
    await row.waitFor({ state: 'detached' });
    expect(await activeElementId(page)).toBe('origins-heading');
    expect(await listed()).not.toContain('http://localhost:5173');
    expect(await corsGrantFor(siteId, 'http://localhost:5173')).toBeNull();
    expect(await corsGrantFor(siteId, 'https://app.example.com')).toBe('https://app.example.com');
  });

  it("shows a key's requests, errors, last use and last status", async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL(`**/console/sites/${siteId}/keys`);
    await page.getByLabel('Name', { exact: true }).fill('Reporting job');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByTestId('new-api-key').waitFor();
    apiKey = (await page.getByTestId('new-api-key').textContent())!.trim();

    // Three good calls, then one naming another site (403): four requests, one error, last status 403.
    for (let i = 0; i < 3; i++) expect((await fetch(`${base}/sites`, { headers: { 'X-API-Key': apiKey } })).status).toBe(200);
    expect((await fetch(`${base}/sites/${randomUUID()}`, { headers: { 'X-API-Key': apiKey } })).status).toBe(403);

    await page.getByRole('link', { name: 'Usage of Reporting job' }).click();
    await page.waitForURL('**/keys/*');
    expect(await page.getByRole('link', { name: 'API keys', exact: true }).getAttribute('aria-current')).toBe('page');
    // Usage is written in batches off the request path: reload until all four are in.
    const requests = page.getByTestId('usage-requests');
    for (let attempt = 0; attempt < 40 && (await requests.textContent()) !== '4'; attempt++) {
      await page.waitForTimeout(250);
      await page.reload();
    }
    expect(await requests.textContent()).toBe('4');
    expect(await page.getByTestId('usage-errors').textContent()).toBe('1');
    expect(await page.getByTestId('usage-last-status').textContent()).toBe('403');
    await page.getByRole('heading', { name: /Usage of “Reporting job”/ }).waitFor({ state: 'visible', timeout: 10_000 });

    const today = new Date().toISOString().slice(0, 10);
    const rows = page.locator('table.usage tbody tr');
    expect(await rows.count()).toBe(30);
    const todayRow = page.locator(`table.usage tbody tr[data-date="${today}"]`);
    expect(await todayRow.locator('td').allTextContents()).toEqual(['4', '1']);
    expect(await rows.first().getAttribute('data-date')).toBe(today);
    await screenshot(page, '23-key-usage');
  });

  it('moves the focus to the keys heading after a revoke', async () => {
    await page.getByRole('link', { name: '← All API keys' }).click();
    await page.waitForURL(`**/console/sites/${siteId}/keys`);
    const row = page.locator('tbody tr', { hasText: 'Reporting job' });
    await row.getByRole('button', { name: 'Revoke Reporting job' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await row.locator('.badge', { hasText: 'revoked' }).waitFor();
    expect(await activeElementId(page)).toBe('keys-heading');
    expect((await fetch(`${base}/sites`, { headers: { 'X-API-Key': apiKey } })).status).toBe(401);
    await screenshot(page, '24-key-revoked-focus');
  });

  it('fits a phone screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ['origins', `keys/${(await page.locator('tbody tr').first().getAttribute('data-row-id'))!}`]) {
      await page.goto(`${base}/console/sites/${siteId}/${path}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect({ path, overflow }).toEqual({ path, overflow: 0 });
    }
    await screenshot(page, '25-key-usage-phone');
  });
});
