import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createSiteInConsole, launchBrowser, screenshot, signUp } from './browser';

const base = inject('e2eBaseUrl');

const platformCall = async (key: string, path: string, body?: unknown) => {
  const res = await fetch(`${base}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json() };
};

describe.skipIf(!base)('console: platform apps, keys, audit log and email, end to end', () => {
  let browser: Browser;
  let page: Page;
  let platformKey = '';
  const address = `owner-${randomBytes(4).toString('hex')}@example.com`;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    // The machine running the suite may be busy: waits are for the page, not a measure of speed.
    page.setDefaultTimeout(90_000);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('creates an app and a platform key shown once; the key opens the platform API over HTTP', { timeout: 300_000 }, async () => {
    await signUp(page, base, `e2e-platform-${randomBytes(4).toString('hex')}@example.com`);
    await createSiteInConsole(page, 'Platform Shop');

    await page.getByRole('link', { name: 'Platform apps' }).click();
    await page.waitForURL('**/platform');
    await page.getByLabel('App name').fill('Booking app');
    await page.getByRole('button', { name: 'Create app' }).click();
    await page.getByText(/its schema is app_[a-z2-7]{16}/).waitFor();

    await page.getByLabel('Name', { exact: true }).fill('Production');
    await page.getByLabel('email.send.test-only').check();
    await page.getByRole('button', { name: 'Create platform key' }).click();
    const shown = page.getByTestId('new-platform-key');
    await shown.waitFor();
    platformKey = (await shown.textContent())!.trim();
    expect(platformKey).toMatch(/^sgp_pk_[0-9A-Za-z]{49}$/);
    await screenshot(page, '40-platform-key-created');

    const me = await platformCall(platformKey, '/api/platform/me');
    expect(me.status).toBe(200);
    expect(me.body.data.key.capabilities).toEqual(['leads.read', 'email.send.test-only']);
    expect((await platformCall(platformKey, '/api/platform/leads', { leads: [{ name: 'Ada', email: 'ada@example.com' }] })).status).toBe(403);

    await page.reload();
    expect(await page.getByTestId('new-platform-key').count()).toBe(0);
    const audit = page.locator('section[aria-labelledby="platform-audit-heading"] tbody tr');
    expect(await audit.count()).toBe(2);
    expect(await audit.first().textContent()).toContain('POST /api/platform/leads');
    expect(await audit.first().textContent()).toContain('403');
  });

  it('verifies an owner address with the code from the outbox; a test-only key then sends to it', { timeout: 300_000 }, async () => {
    await page.getByRole('link', { name: 'Email', exact: true }).click();
    await page.waitForURL('**/email');
    await page.getByLabel('Your address').fill(address);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByText(`Code sent to ${address}.`).waitFor();
    await page.reload();
    const summary = page.locator('.messages summary').first();
    const subject = (await summary.textContent())!;
    const code = /([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(subject)![1];

    expect((await platformCall(platformKey, '/api/platform/email/send', { to: [address], subject: 'Hi', text: 'x' })).status).toBe(403);
    await page.getByLabel(`Code for ${address}`).fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.locator(`tr[data-row-id="${address}"]`).getByText('verified').waitFor();

    const sent = await platformCall(platformKey, '/api/platform/email/send', {
      to: [address],
      subject: 'Welcome preview',
      text: 'Hello from the app',
    });
    expect(sent.status).toBe(201);
    expect(sent.body.data.transport).toBe('outbox');
    await page.reload();
    await page.locator('.messages summary', { hasText: 'Welcome preview' }).click();
    expect(await page.locator('.message-body', { hasText: 'Hello from the app' }).count()).toBe(1);
    await screenshot(page, '41-email-outbox');
  });

  it('revokes the key: the next platform call is 401', { timeout: 300_000 }, async () => {
    await page.getByRole('link', { name: 'Platform apps' }).click();
    await page.waitForURL('**/platform');
    await page.getByRole('button', { name: 'Revoke Production' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.locator('section[aria-labelledby="platform-keys-heading"] tbody td', { hasText: 'revoked' }).waitFor();
    expect((await platformCall(platformKey, '/api/platform/me')).status).toBe(401);
  });
});
