import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot } from './browser';

const base = inject('e2eBaseUrl');

/** GET /sites over HTTP with an API key, as a customer's server would call it. */
async function listSitesWith(apiKey: string) {
  const res = await fetch(`${base}/sites`, { headers: { 'X-API-Key': apiKey } });
  return { status: res.status, body: await res.json() };
}

describe.skipIf(!base)('console, end to end', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const email = `e2e-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'a long enough password';
  let siteId = '';
  let apiKey = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('sends a visitor to sign-in, and signs up with errors shown next to the field', async () => {
    await page.goto(`${base}/`);
    expect(new URL(page.url()).pathname).toBe('/signin');
    await screenshot(page, '01-signin');

    await page.getByRole('link', { name: 'Create one' }).click();
    await page.waitForURL('**/signup');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    const passwordError = page.locator('#field-password-error');
    await passwordError.waitFor();
    expect(await passwordError.textContent()).toBe('Password must be at least 10 characters');
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    await screenshot(page, '02-signup-error');

    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/console');
    await page.getByText('No sites yet').waitFor({ state: 'visible', timeout: 10_000 });
    await screenshot(page, '03-sites-empty');
  });

  it('creates a site', async () => {
    await page.getByLabel('Name').fill('Acme Shop');
    await page.getByLabel('Domain (optional)').fill('shop example');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.locator('#field-domain-error').waitFor();
    expect(await page.locator('#field-domain-error').textContent()).toContain('as a host name such as example.com');

    // A pasted address keeps its host (the API call below reads domain shop.example.com).
    await page.getByLabel('Domain (optional)').fill('https://Shop.Example.com/');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.waitForURL('**/console/sites/*');
    siteId = new URL(page.url()).pathname.split('/').pop()!;
    expect(siteId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Acme Shop');
    await page.getByRole('navigation', { name: 'Site sections' }).getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL('**/keys');
    await screenshot(page, '04-site-keys-empty');
  });

  it('creates a key that is shown once, with a copy button', async () => {
    await page.getByLabel('Name', { exact: true }).fill('Checkout server');
    await page.getByLabel('read').uncheck();
    await page.getByRole('button', { name: 'Create key' }).click();
    // The group names its error (aria-describedby), whose id is its own on a page of several groups.
    const scopes = page.getByRole('group', { name: 'Scopes' });
    await scopes.locator('.error').waitFor();
    const describedBy = await scopes.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe('At least one scope is required');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Checkout server');
    expect(await page.getByTestId('new-api-key').count()).toBe(0);

    await page.getByLabel('read').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByTestId('new-api-key');
    await shown.waitFor();
    apiKey = (await shown.textContent())!.trim();
    expect(apiKey).toMatch(/^key_[0-9A-Za-z]{49}$/);
    await page.getByText('you will not see it again').waitFor({ state: 'visible', timeout: 10_000 });
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByText('Copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiKey);
    const row = page.locator('tbody tr', { hasText: 'Checkout server' });
    expect(await row.locator('.badge').textContent()).toBe('active');
    await screenshot(page, '05-key-created');

    await page.reload();
    expect(await page.getByTestId('new-api-key').count()).toBe(0);
    expect(await page.content()).not.toContain(apiKey);
    expect(await page.locator('tbody tr', { hasText: 'Checkout server' }).locator('.mono').textContent()).toBe(`key_…${apiKey.slice(-4)}`);
  });

  it('lets the key call the API', async () => {
    const { status, body } = await listSitesWith(apiKey);
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, data: [{ id: siteId, name: 'Acme Shop', domain: 'shop.example.com' }] });

    // Usage is written in batches off the request path, so the page may need a few reloads to show it.
    const lastUsed = page.locator('tbody tr', { hasText: 'Checkout server' }).locator('td').nth(2);
    for (let attempt = 0; attempt < 40 && (await lastUsed.textContent()) === 'Never'; attempt++) {
      await page.waitForTimeout(250);
      await page.reload();
    }
    expect(await lastUsed.locator('time').textContent()).toBe('just now');
  });

  it('shows the tracking snippet for the site', async () => {
    const menuLink = page.getByRole('navigation', { name: 'Site sections' }).getByRole('link', { name: 'Tracking snippet' });
    await menuLink.click();
    await page.waitForURL('**/snippet');
    expect(await menuLink.getAttribute('aria-current')).toBe('page');
    expect(await page.getByTestId('tracking-snippet').textContent()).toBe(`<script src="${base}/t.js" data-site-id="${siteId}" async></script>`);
    await screenshot(page, '06-snippet');
    await page.getByRole('navigation', { name: 'Site sections' }).getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL(`**/console/sites/${siteId}/keys`);
  });

  it('revokes the key after confirmation, and the same call is then refused', async () => {
    const row = page.locator('tbody tr', { hasText: 'Checkout server' });
    await row.getByRole('button', { name: 'Revoke Checkout server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke “Checkout server”?' });
    await dialog.waitFor();
    await screenshot(page, '07-revoke-confirm');

    // Focus starts on Cancel; Escape closes the dialog, gives focus back and leaves the key alone.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Revoke Checkout server');
    expect((await listSitesWith(apiKey)).status).toBe(200);

    // The keyboard alone opens it again; the confirm button revokes.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await row.locator('.badge', { hasText: 'revoked' }).waitFor();
    expect(await row.getByRole('button', { name: /Revoke/ }).count()).toBe(0);
    await screenshot(page, '08-key-revoked');

    const { status, body } = await listSitesWith(apiKey);
    expect(status).toBe(401);
    expect(body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED', message: 'API key has been revoked' } });
  });

  it('signs out, refuses a wrong password, and signs back in to the same sites', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/signin');
    await page.goto(`${base}/console`);
    expect(new URL(page.url()).pathname).toBe('/signin');

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await screenshot(page, '09-signin-error');

    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/console');
    await page.getByRole('link', { name: /Acme Shop/ }).waitFor({ state: 'visible', timeout: 10_000 });
    await screenshot(page, '10-sites');
  });

  it("keeps one account's site out of another's reach", async () => {
    const other = await browser.newContext();
    try {
      const page2 = await other.newPage();
      await page2.goto(`${base}/signup`);
      await page2.getByLabel('Email').fill(`other-${email}`);
      await page2.getByLabel('Password').fill(password);
      await page2.getByRole('button', { name: 'Create account' }).click();
      await page2.waitForURL('**/console');
      await page2.getByText('No sites yet').waitFor({ state: 'visible', timeout: 10_000 });
      for (const path of [`/console/sites/${siteId}`, `/console/sites/${siteId}/snippet`, '/console/sites/not-a-uuid']) {
        const res = await page2.goto(`${base}${path}`);
        expect(res?.status()).toBe(404);
        // The not-found view may stream in after the response status: wait for it (fails after the timeout).
        await page2.getByRole('heading', { name: 'Not found' }).waitFor({ state: 'visible', timeout: 10_000 });
        expect(await page2.content()).not.toContain('Acme Shop');
      }
      await screenshot(page2, '12-other-account-not-found');
    } finally {
      await other.close();
    }
  });

  it('follows a dark system setting', async () => {
    const dark = await browser.newContext({ colorScheme: 'dark', viewport: { width: 1280, height: 860 } });
    try {
      await dark.addCookies(await context.cookies());
      const darkPage = await dark.newPage();
      await darkPage.goto(`${base}/console/sites/${siteId}/keys`);
      const background = await darkPage.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).toBe('rgb(18, 21, 26)');
      await screenshot(darkPage, '13-site-keys-dark');
    } finally {
      await dark.close();
    }
  });

  it('fits a phone screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/console/sites/${siteId}/keys`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    await screenshot(page, '11-site-keys-phone');
  });
});
