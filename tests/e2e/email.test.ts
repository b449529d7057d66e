import { randomBytes, randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createSiteInConsole, openConsolePage, screenshot, signUp } from './browser';

const base = inject('e2eBaseUrl');

/**
 * The Email page on a fresh server: the owner sets the sender identity, sets up the mailbox (the
 * password never comes back) and checks the connection; `?lead=<id>` narrows the log to a lead.
 */
describe.skipIf(!base)('console: email, end to end', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ({ browser, page } = await openConsolePage(90_000));
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('sender identity, mailbox with check connection, a lead’s history', { timeout: 240_000 }, async () => {
    await signUp(page, base, `e2e-email-${randomBytes(4).toString('hex')}@example.com`);
    const siteId = await createSiteInConsole(page, 'Mail Shop');

    await page.goto(`${base}/console/sites/${siteId}/email`);
    await page.getByLabel('Display name').fill('Mail Shop Sales');
    await page.getByLabel('Reply-To').fill('inbox@mail-shop.io');
    await page.getByRole('button', { name: 'Save sender' }).click();
    await page.locator('section[aria-labelledby="sender-heading"] [role="status"]', { hasText: 'Mail Shop Sales' }).waitFor();

    const password = `imap-${randomBytes(8).toString('hex')}`;
    await page.getByLabel('IMAP server').fill('10.0.0.1');
    await page.getByLabel('Username').fill('inbox@mail-shop.io');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Save mailbox' }).click();
    await page.getByRole('button', { name: 'Check connection' }).waitFor();
    expect(await page.content()).not.toContain(password);
    await page.getByRole('button', { name: 'Check connection' }).click();
    await page.locator('[data-mailbox-check="MAILBOX_UNREACHABLE"]').waitFor();
    await screenshot(page, 'email-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'email-390');
    await page.setViewportSize({ width: 1280, height: 860 });

    await page.goto(`${base}/console/sites/${siteId}/email?lead=${randomUUID()}`);
    await page.getByRole('heading', { name: 'Email with this lead' }).waitFor();
    expect(await page.getByRole('link', { name: 'Show every message' }).count()).toBe(1);
  });
});
