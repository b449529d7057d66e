import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createKeyInConsole, createSiteInConsole, openConsolePage, screenshot, signUp } from './browser';

const base = inject('e2eBaseUrl');

const activeElementId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? null);

/**
 * The Secrets page on a fresh server with no master key configured (the embedded default: a key
 * file under DATA_DIR): store, list without values, decrypt from a server with a write key,
 * audit, delete.
 */
describe.skipIf(!base)('console: secrets, end to end', () => {
  let browser: Browser;
  let page: Page;
  let siteId = '';
  let apiKey = '';
  const value = `sk_live_${randomBytes(12).toString('hex')}`;

  beforeAll(async () => {
    // The first console page compiles nothing but opens the database: room for a busy machine.
    ({ browser, page } = await openConsolePage(90_000));
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('stores a secret and lists it without its value', { timeout: 240_000 }, async () => {
    await signUp(page, base, `e2e-secrets-${randomBytes(4).toString('hex')}@example.com`);
    siteId = await createSiteInConsole(page, 'Secret Shop');
    apiKey = await createKeyInConsole(page, 'Integration server');

    await page.getByRole('link', { name: 'Secrets' }).click();
    await page.waitForURL('**/secrets');
    expect(await page.getByRole('link', { name: 'Secrets' }).getAttribute('aria-current')).toBe('page');
    expect(await page.locator('.empty-state').first().textContent()).toContain('No secrets stored');

    await page.getByLabel('Identifier').fill('stripe.live');
    await page.getByLabel('Value').fill(value);
    await page.getByRole('button', { name: 'Store secret' }).click();
    await page.locator('tr[data-row-id="stripe.live"]').waitFor();
    expect(await page.locator('section[aria-labelledby="add-secret-heading"] [role="status"]').textContent()).toContain('Stored stripe.live');
    expect(await page.getByLabel('Value').inputValue()).toBe('');
    expect(await page.content()).not.toContain(value);

    // The same identifier again: the error is next to the field, the value is not sent back.
    await page.getByLabel('Identifier').fill('stripe.live');
    await page.getByLabel('Value').fill('another');
    await page.getByRole('button', { name: 'Store secret' }).click();
    await page.locator('#field-identifier-error').waitFor();
    expect(await page.locator('#field-identifier-error').textContent()).toContain('already exists');
    expect(await page.getByLabel('Value').inputValue()).toBe('');
    await screenshot(page, '40-secrets-list');
  });

  it('a server decrypts it with a write key; the read shows in the activity', { timeout: 180_000 }, async () => {
    const id = (await page.locator('tr[data-row-id="stripe.live"] td.mono').nth(1).textContent())!.trim();
    const res = await fetch(`${base}/api/secure-tokens/${id}/decrypt`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: siteId }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, data: { id, type: 'api_key', identifier: 'stripe.live', value } });
    await page.reload();
    const activity = page.locator('section[aria-labelledby="secret-audit-heading"] tbody tr');
    expect(await activity.first().textContent()).toContain('decrypt');
    expect(await page.locator('tr[data-row-id="stripe.live"]').textContent()).not.toContain('never');
  });

  it('deletes it after confirmation', { timeout: 180_000 }, async () => {
    await page.getByRole('button', { name: 'Delete stripe.live' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete secret' }).click();
    await page.locator('tr[data-row-id="stripe.live"]').waitFor({ state: 'detached' });
    expect(await activeElementId(page)).toBe('secrets-heading');
  });
});
