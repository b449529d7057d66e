import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot, signedUpPage } from './browser';
import { apiCall, ownerSession, readWriteKey, type ApiInit } from './shop';

const base = inject('e2eBaseUrl');

/** One API call; a 429 waits its Retry-After and tries again. */
const api = (path: string, init?: ApiInit) => apiCall(base, path, init);

/** The instances console against the app's own robot provider (the machine's Chromium, started by the server). */
describe.skipIf(!base)('console: robot instances, end to end', () => {
  let browser: Browser;
  let page: Page;
  const email = `e2e-robots-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'a long enough password';
  let siteId = '';
  let key = '';
  let instanceId = '';
  const statusOf = async () => (await api(`/api/instances/${instanceId}`, { headers: { 'x-api-key': key } })).body.data.status as string;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await signedUpPage(browser, base, email, password);
    const session = await ownerSession(base, email, password);
    siteId = (await api('/api/visitors/sites', { method: 'POST', headers: session, body: { name: 'Robot Shop' } })).body.data.id;
    key = await readWriteKey(base, session, siteId, 'robots');
    const created = await api('/api/robots/instance', {
      method: 'POST',
      headers: { 'x-api-key': key },
      body: { site_id: siteId, activity: 'Look at a greeting' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    instanceId = created.body.data.instance.id;
    const acted = await api('/api/robots/instance/act', {
      method: 'POST',
      headers: { 'x-api-key': key },
      body: {
        instance_id: instanceId,
        message: 'Open the greeting',
        actions: [
          { type: 'navigate', url: 'data:text/html,<h1>Hello from the robot</h1>' },
          { type: 'extract', selector: 'h1' },
        ],
      },
    });
    expect(acted.body.data.executed.map((s: { status: string }) => s.status)).toEqual(['completed', 'completed']);
  }, 120_000);

  afterAll(async () => {
    if (instanceId) await api('/api/robots/instance/delete', { method: 'POST', headers: { 'x-api-key': key }, body: { instance_id: instanceId } });
    await browser?.close();
  });

  it('lists the instances from the site tabs with their status', async () => {
    await page.goto(`${base}/console/sites/${siteId}`);
    await page.getByRole('link', { name: 'Instances' }).click();
    await page.waitForURL('**/instances');
    expect(await page.getByRole('link', { name: 'Instances' }).getAttribute('aria-current')).toBe('page');
    const row = page.locator(`tr[data-row-id="${instanceId}"]`);
    expect(await row.locator('.badge').textContent()).toBe('running');
    expect(await row.getByRole('button', { name: /Pause/ }).count()).toBe(1);
    expect(await row.getByRole('button', { name: /Resume/ }).count()).toBe(0);
    await screenshot(page, '50-instances');
  });

  it("shows an instance's latest screenshot, plan steps and logs", async () => {
    await page.locator(`tr[data-row-id="${instanceId}"] a`).first().click();
    await page.getByTestId('instance-status').waitFor({ state: 'visible' });
    const shot = page.getByRole('img', { name: /at its latest action/ });
    expect(await shot.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(await shot.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1280);
    expect(await page.locator('.plan li').allTextContents()).toEqual([
      expect.stringContaining('Open data:text/html'),
      expect.stringContaining('Read the text of h1'),
    ]);
    expect(await page.locator('.plan li').nth(1).textContent()).toContain('Hello from the robot');
    expect(await page.getByRole('cell', { name: 'Browser started' }).count()).toBe(1);
    await screenshot(page, '51-instance');
  });

  it('pauses, resumes and stops (after confirmation) from the console', async () => {
    await page.getByRole('button', { name: /^Pause/ }).click();
    await page.getByTestId('instance-status').filter({ hasText: 'paused' }).waitFor({ state: 'visible', timeout: 20_000 });
    expect(await statusOf()).toBe('paused');
    await page.getByRole('button', { name: /^Resume/ }).click();
    await page.getByTestId('instance-status').filter({ hasText: 'running' }).waitFor({ state: 'visible', timeout: 30_000 });
    expect(await statusOf()).toBe('running');
    await page.getByRole('button', { name: /^Stop/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor({ state: 'visible' });
    await screenshot(page, '52-instance-stop-dialog');
    await dialog.getByRole('button', { name: 'Stop' }).click();
    await page.getByTestId('instance-status').filter({ hasText: 'stopped' }).waitFor({ state: 'visible', timeout: 20_000 });
    expect(await statusOf()).toBe('stopped');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('instance-heading');
  });
});
