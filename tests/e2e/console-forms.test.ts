import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot, signedUpPage } from './browser';

const base = inject('e2eBaseUrl');

async function api(path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: await res.json() };
}

/** The forms generated from a body schema: a refusal next to its field, then the action's result and where it leads. */
describe.skipIf(!base)('console: forms generated from the API schemas, end to end', () => {
  let browser: Browser;
  let page: Page;
  let phone: Page;
  const email = `e2e-forms-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'a long enough password';
  let siteId = '';
  let key = '';
  let robotId = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await signedUpPage(browser, base, email, password);
    await page.getByLabel('Name', { exact: true }).fill('Form Shop');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.waitForURL(/\/console\/sites\/[0-9a-f-]{36}$/);
    siteId = page.url().split('/').at(-1)!;
    const token = (await api('/api/auth/token', { method: 'POST', body: { email, password } })).body.data.token;
    key = (
      await api('/api/keys', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: { name: 'forms', scopes: ['read', 'write'], site_id: siteId },
      })
    ).body.data.apiKey;
    phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, storageState: await page.context().storageState() })).newPage();
  }, 120_000);

  afterAll(async () => {
    if (robotId) await api('/api/robots/instance/delete', { method: 'POST', headers: { 'x-api-key': key }, body: { instance_id: robotId } });
    await browser?.close();
  });

  it('starts a workflow from its generated form, the refusal next to the field first', async () => {
    await page.goto(`${base}/console/sites/${siteId}/workflows/start?name=humanIntervention`);
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.locator('#field-question-error').waitFor();
    await screenshot(page, 'forms-01-start-refused');
    await page.getByLabel('Question').fill('Ship it?');
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.getByRole('link', { name: 'Open the run' }).click();
    await page.locator('#run-heading').waitFor();
    expect(await page.locator('#run-heading').textContent()).toContain('Ask a person');
    await phone.goto(`${base}/console/sites/${siteId}/workflows/start?name=humanIntervention`);
    await screenshot(phone, 'forms-02-start-phone');
  });

  it('creates a robot from its generated form and opens it', async () => {
    await page.goto(`${base}/console/sites/${siteId}/instances`);
    await page.getByRole('button', { name: 'Create robot' }).click();
    await page.locator('#field-activity-error').waitFor();
    await page.getByLabel('Activity').fill('Look at the shop');
    await page.getByRole('button', { name: 'Create robot' }).click();
    await page.getByRole('link', { name: 'Open it' }).waitFor();
    await screenshot(page, 'forms-03-robot-created');
    robotId = (await page.getByRole('link', { name: 'Open it' }).getAttribute('href'))!.split('/').at(-1)!;
    await page.locator(`tr[data-row-id="${robotId}"]`).waitFor();
    await phone.goto(`${base}/console/sites/${siteId}/instances`);
    await screenshot(phone, 'forms-04-instances-phone');
  });
});
