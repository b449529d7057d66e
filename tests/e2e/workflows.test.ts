import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot, signedUpPage } from './browser';
import { apiCall, ownerSession, readWriteKey, type ApiInit } from './shop';

const base = inject('e2eBaseUrl');

/** One API call; a 429 (the site's Basic plan allows 60 requests a minute) waits its Retry-After and tries again. */
const api = (path: string, init?: ApiInit) => apiCall(base, path, init);

describe.skipIf(!base)('console: workflow runs, end to end', () => {
  let browser: Browser;
  let page: Page;
  const email = `e2e-workflows-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'a long enough password';
  let siteId = '';
  let key = '';
  const runs: Record<string, string> = {};

  const start = async (name: string, body: Record<string, unknown> = {}) => {
    const res = await api(`/api/workflow/${name}`, { method: 'POST', headers: { 'x-api-key': key }, body: { site_id: siteId, ...body } });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    // The inbound change-event route answers with the run that records the event.
    return (res.body.workflowId ?? res.body.event_workflow_id) as string;
  };
  const statusOf = async (workflowId: string) =>
    (await api(`/api/logs/workflows/${workflowId}?site_id=${siteId}`, { headers: { 'x-api-key': key } })).body.data.status as string;
  async function settled(workflowId: string) {
    for (let i = 0; i < 100; i++) {
      const status = await statusOf(workflowId);
      if (status !== 'RUNNING') return status;
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`${workflowId} did not end`);
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await signedUpPage(browser, base, email, password);
    const session = await ownerSession(base, email, password);
    siteId = (await api('/api/visitors/sites', { method: 'POST', headers: session, body: { name: 'Flow Shop' } })).body.data.id;
    key = await readWriteKey(base, session, siteId, 'flows');
    // The app's own worker (instrumentation hook) executes these; in batches below the Basic plan's
    // cap of 10 runs in progress.
    for (let batch = 0; batch < 3; batch++) {
      const started = [];
      for (let i = batch * 7; i < batch * 7 + 7; i++) started.push(await start('webhook', { type: 'INSERT', table: `table_${i}` }));
      for (const id of started) expect(await settled(id)).toBe('COMPLETED');
    }
    runs.standUp = await start('dailyStandUp');
    runs.model = await start('leadGeneration');
    runs.waiting = await start('humanIntervention', { question: 'Ship it?' });
    expect(await settled(runs.standUp)).toBe('COMPLETED');
    expect(await settled(runs.model)).toBe('FAILED');
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('lists the runs from the site tabs with status badges, newest first, page by page', async () => {
    await page.goto(`${base}/console/sites/${siteId}`);
    await page.getByRole('link', { name: 'Workflows' }).click();
    await page.waitForURL('**/workflows');
    expect(await page.getByRole('link', { name: 'Workflows' }).getAttribute('aria-current')).toBe('page');
    expect(await page.getByTestId('runs-total').textContent()).toBe('24 runs');
    const rows = page.locator('tbody tr');
    expect(await rows.count()).toBe(20);
    expect(await rows.first().getAttribute('data-row-id')).toBe(runs.waiting);
    expect(await rows.first().locator('.badge').textContent()).toBe('RUNNING');
    expect(await page.locator(`tr[data-row-id="${runs.model}"] .badge`).textContent()).toBe('FAILED');
    expect(await page.locator(`tr[data-row-id="${runs.standUp}"] .badge`).textContent()).toBe('COMPLETED');
    await screenshot(page, '40-workflow-runs');

    await page.getByRole('link', { name: 'Next page →' }).click();
    await page.getByRole('link', { name: '← Previous page' }).waitFor({ state: 'visible' });
    expect(await rows.count()).toBe(4);
    expect(await page.getByRole('link', { name: 'Next page →' }).count()).toBe(0);
    await page.getByRole('link', { name: '← Previous page' }).click();
    await page.getByRole('link', { name: 'Next page →' }).waitFor({ state: 'visible' });
    expect(await rows.first().getAttribute('data-row-id')).toBe(runs.waiting);
    expect(await page.getByRole('link', { name: '← Previous page' }).count()).toBe(0);
  });

  it('filters by status and type', async () => {
    await page.getByLabel('Status').selectOption('FAILED');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL((u) => u.searchParams.get('status') === 'FAILED');
    expect(await page.locator('tbody tr').count()).toBe(1);
    await page.getByLabel('Status').selectOption('');
    await page.locator('select[name="type"]').selectOption('webhookWorkflow');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL((u) => u.searchParams.get('type') === 'webhookWorkflow' && !u.searchParams.get('status'));
    expect(await page.getByTestId('runs-total').textContent()).toBe('21 runs');
  });

  it('shows a failed run with its failure and input', async () => {
    await page.goto(`${base}/console/sites/${siteId}/workflows`);
    await page.locator(`tr[data-row-id="${runs.model}"] a`).click();
    await page.getByTestId('run-failure').waitFor({ state: 'visible' });
    expect(await page.getByTestId('run-failure').textContent()).toMatch(/^MODEL_NOT_CONFIGURED: .*LLM_BASE_URL/);
    expect(JSON.parse((await page.getByTestId('run-input').textContent())!)).toEqual({ site_id: siteId });
    expect(await page.getByRole('button', { name: /Cancel run/ }).count()).toBe(0);
    await screenshot(page, '41-workflow-failed');
  });

  it('cancels a running run after confirmation', async () => {
    await page.goto(`${base}/console/sites/${siteId}/workflows/${runs.waiting}`);
    await page
      .getByRole('button', { name: /Cancel run/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor({ state: 'visible' });
    await screenshot(page, '42-workflow-cancel-dialog');
    await dialog.getByRole('button', { name: 'Cancel run' }).click();
    await page.locator('#run-heading .badge', { hasText: 'CANCELLED' }).waitFor({ state: 'visible', timeout: 10_000 });
    expect(await statusOf(runs.waiting)).toBe('CANCELLED');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('run-heading');
  });
});
