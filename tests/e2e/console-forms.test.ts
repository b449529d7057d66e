import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createSiteInConsole, launchBrowser, screenshot, signedUpPage } from './browser';
import { apiCall, ownerSession, readWriteKey, type ApiInit } from './shop';

const base = inject('e2eBaseUrl');

const api = (path: string, init?: ApiInit) => apiCall(base, path, init, 0);

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
    siteId = await createSiteInConsole(page, 'Form Shop');
    key = await readWriteKey(base, await ownerSession(base, email, password), siteId, 'forms');
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
