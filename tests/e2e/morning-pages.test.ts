import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-server';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { launchBrowser, screenshot, signedUpPage } from './browser';
import { startServer, type RunningServer } from './server';
import { api, eventually } from './shop';

const base = inject('e2eBaseUrl');
/** A second app with a model (the local OpenAI-compatible stand-in) and webhooks allowed to loopback. */
const MODEL_PORT = Number(process.env.E2E_MODEL_PORT ?? (process.env.E2E_PORT ? Number(process.env.E2E_PORT) + 1 : 3601));

/**
 * The pages an owner finishes a job on, each finding of the morning walk reproduced and shown
 * fixed: a pasted shop URL, a lead's status, segments, conversations with the agents (streamed),
 * the commands and runs they start, workflow names and results, form errors in words, webhook
 * health and events, email compose and delivery, and the team profile that is not Members.
 */
describe.skipIf(!base)('console: pages that finish their job', () => {
  let browser: Browser;
  let page: Page;
  let phone: Page;
  let model: LlmStandIn;
  let receiver: Receiver;
  let app: RunningServer;
  let APP = '';
  const email = `e2e-pages-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'a long enough password';
  let siteId = '';
  let key: Record<string, string> = {};

  /** Both widths of a page: the 1280 px one as it is, and the same URL on a 390 px phone. */
  async function shots(name: string) {
    await screenshot(page, `morning-${name}-1280`);
    await phone.goto(page.url());
    await phone.waitForLoadState('networkidle');
    await screenshot(phone, `morning-${name}-390`);
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${name} scrolls sideways at 390 px`).toBeLessThanOrEqual(0);
  }
  const site = (path = '') => `${APP}/console/sites/${siteId}${path}`;

  beforeAll(async () => {
    model = await startLlmStandIn();
    receiver = await startReceiver();
    app = await startServer(
      MODEL_PORT,
      {
        LLM_BASE_URL: model.url,
        LLM_API_KEY: 'standin-key',
        LLM_MODEL: 'stand-in-model',
        OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
        // One attempt, then a long wait: the endpoint's health shows the ping's answer, not a retry's.
        WEBHOOK_RETRY_DELAYS: '3600',
      },
      'morning-pages',
    );
    APP = app.url;
    browser = await launchBrowser();
    page = await signedUpPage(browser, APP, email, password);
    phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, storageState: await page.context().storageState() })).newPage();
  }, 400_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await receiver?.close();
    await model?.close();
  });

  it('creates a site from a pasted https://shop.example/ and keeps its host (console and API)', async () => {
    await page.goto(`${APP}/console`);
    await page.getByLabel('Name', { exact: true }).fill('Morning shop');
    await page.getByLabel('Domain (optional)', { exact: true }).fill('https://Shop.Example/');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.waitForURL(/\/console\/sites\/[0-9a-f-]{36}$/);
    siteId = /sites\/([0-9a-f-]{36})/.exec(page.url())![1];
    await page.goto(site('/general'));
    expect(await page.getByLabel('Domain', { exact: true }).inputValue()).toBe('shop.example');
    await shots('01-site-from-url');

    const token = (await api(APP, 'POST', '/api/auth/token', { email, password })).body.data.token;
    const session = { authorization: `Bearer ${token}` };
    const viaApi = await api(APP, 'POST', '/api/visitors/sites', { name: 'Second', domain: 'https://www.second.example/shop?ref=1' }, session);
    expect(viaApi.status).toBe(201);
    expect(viaApi.body.data.domain).toBe('www.second.example');
    const refused = await api(APP, 'POST', '/api/visitors/sites', { name: 'Third', domain: 'not a host' }, session);
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.issues[0]).toMatchObject({ path: 'body.domain' });
    const created = await api(APP, 'POST', '/api/keys', { name: 'morning', scopes: ['read', 'write'], site_id: siteId }, session);
    key = { 'x-api-key': created.body.data.apiKey };
  });

  it("keeps a lead's status in the dropdown after a change, as the badge says", async () => {
    const lead = await api(APP, 'POST', '/api/agents/tools/leads/create', { site_id: siteId, name: 'Ada Lovelace', email: 'ada@shop.example' }, key);
    expect(lead.status, JSON.stringify(lead.body)).toBeLessThan(300);
    await page.goto(site(`/leads/${lead.body.lead.id}`));
    await page.getByLabel('Status', { exact: true }).selectOption('contacted');
    await page.getByRole('button', { name: 'Change status' }).click();
    await page.getByRole('status').filter({ hasText: 'Status is now contacted.' }).waitFor();
    await page.locator('h2 .badge', { hasText: 'contacted' }).waitFor();
    expect(await page.getByLabel('Status', { exact: true }).inputValue()).toBe('contacted');
    await shots('02-lead-status');
    expect(await phone.getByLabel('Status', { exact: true }).inputValue()).toBe('contacted');
  });

  it('shows a segment by its leads, edits it and deletes it', async () => {
    const segment = await api(APP, 'POST', '/api/agents/tools/segments/create', { site_id: siteId, name: 'Runners' }, key);
    expect(segment.status).toBe(201);
    const segmentId = segment.body.segment.segment_id as string;
    for (const who of ['bo', 'cy']) {
      const res = await api(
        APP,
        'POST',
        '/api/agents/tools/leads/create',
        { site_id: siteId, name: who, email: `${who}@shop.example`, segment_id: segmentId },
        key,
      );
      expect(res.status).toBeLessThan(300);
    }
    await page.goto(site('/segments'));
    const row = page.locator(`tr[data-row-id="${segmentId}"]`);
    expect(await row.getByTestId('segment-size').innerText()).toMatch(/^2 leads/);
    await shots('03-segments');
    await row.getByRole('link', { name: 'Edit Runners' }).click();
    await page.waitForURL(`**/segments/${segmentId}`);
    expect(await page.getByTestId('segment-size').innerText()).toBe('2');
    await page.getByLabel('Name', { exact: true }).fill('Trail runners');
    await page.getByLabel('Audience (optional)', { exact: true }).fill('People who run off-road');
    await page.getByRole('button', { name: 'Save segment' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.locator('#segment-heading', { hasText: 'Trail runners' }).waitFor();
    await shots('04-segment-edit');
    await page.getByRole('button', { name: 'Delete segment Trail runners' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete segment' }).click();
    await page.waitForURL(/\/segments$/);
    expect(await page.locator(`tr[data-row-id="${segmentId}"]`).count()).toBe(0);
    const leads = await api(APP, 'POST', '/api/agents/tools/leads/get', { site_id: siteId, search: 'shop.example' }, key);
    expect(
      leads.body.leads.filter((l: { name: string }) => ['bo', 'cy'].includes(l.name)).map((l: { segment_id: string | null }) => l.segment_id),
    ).toEqual([null, null]);
  });

  it('says so when no model is configured (the shared app runs without one)', async () => {
    const other = await signedUpPage(browser, base, `e2e-nomodel-${randomBytes(4).toString('hex')}@example.com`, password);
    await other.getByLabel('Name', { exact: true }).fill('No model shop');
    await other.getByRole('button', { name: 'Create site' }).click();
    await other.waitForURL(/\/console\/sites\/[0-9a-f-]{36}$/);
    await other.goto(`${other.url()}/conversations`);
    expect(await other.getByTestId('model-not-configured').innerText()).toMatch(/MODEL_NOT_CONFIGURED.*LLM_BASE_URL/s);
    await screenshot(other, 'morning-05-no-model-1280');
    await other.setViewportSize({ width: 390, height: 844 });
    await screenshot(other, 'morning-05-no-model-390');
    await other.context().close();
  });

  it('starts a conversation with any agent and shows the reply as it streams in', async () => {
    model.reset();
    model.queue({ text: 'Hello! I qualify your leads: tell me about a prospect and I will propose the next step.' });
    await page.goto(site('/conversations'));
    await page.getByRole('combobox', { name: 'Agent' }).selectOption('sales');
    await page.getByLabel('Message', { exact: true }).fill('What can you do for me?');
    await page.getByRole('button', { name: 'Start conversation' }).click();
    await page.getByTestId('streaming').getByText('I qualify your leads').waitFor();
    await page.getByRole('link', { name: 'Open the conversation' }).waitFor();
    await page.locator('section[aria-labelledby="conversations-heading"] tbody tr').first().waitFor();
    expect(await page.locator('section[aria-labelledby="conversations-heading"] tbody tr').first().innerText()).toContain('Sales');
    await shots('06-conversation-started');
    await page.getByRole('link', { name: 'Open the conversation' }).click();
    await page.getByTestId('messages').getByText('What can you do for me?').waitFor();
    expect(await page.getByTestId('messages').innerText()).toContain('I qualify your leads');
  });

  it('an agentMessage run records its conversation and command, shown in Conversations, Commands and Workflows by name', async () => {
    model.reset();
    model.queue({ text: 'Post twice a week.' });
    const started = await api(APP, 'POST', '/api/workflow/agentMessage', { site_id: siteId, message: 'How often should we post?' }, key);
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const run = await eventually(
      async () => (await api(APP, 'GET', `/api/logs/workflows/${started.body.workflowId}?site_id=${siteId}`, undefined, key)).body.data,
      (r) => r.status !== 'RUNNING',
      'the agentMessage run to end',
    );
    expect(run).toMatchObject({ status: 'COMPLETED', result: { agent: 'cmo', answer: 'Post twice a week.', conversation_id: expect.any(String) } });
    await page.goto(site('/conversations'));
    await page.locator(`a[href$="/conversations/${run.result.conversation_id}"]`).waitFor();
    await page.goto(site('/commands'));
    const rows = page.locator('tbody tr');
    // The console's conversation and the run's message: both the agents' commands, both completed.
    expect(await rows.count()).toBe(2);
    expect(await rows.first().innerText()).toMatch(/message[\s\S]*cmo[\s\S]*completed/);
    await shots('07-commands');

    await page.goto(site('/workflows'));
    const names = await page.locator('tbody tr > :first-child').allInnerTexts();
    expect(names).toContain('Message an agent');
    for (const n of names) expect(n).not.toMatch(/^[a-z]+[A-Z]\w*$/);
    await page.locator(`tr[data-row-id="${started.body.workflowId}"] a`).click();
    await page.getByTestId('run-result-summary').waitFor();
    expect(await page.locator('#run-heading').innerText()).toContain('Message an agent');
    const summary = await page.getByTestId('run-result-summary').innerText();
    expect(summary).toContain('Answer');
    expect(summary).toContain('Post twice a week.');
    expect(await page.locator('section[aria-labelledby="result-heading"] details').first().getAttribute('open')).toBeNull();
    expect(await page.getByTestId('run-result').isVisible()).toBe(false);
    await page.locator('section[aria-labelledby="result-heading"] details summary').first().click();
    expect(JSON.parse(await page.getByTestId('run-result').innerText())).toMatchObject({ answer: 'Post twice a week.' });
    await shots('08-run-readable');
  });

  it('names workflows for people and words every form error ("… is required"), never zod', async () => {
    await page.goto(site('/workflows/start'));
    expect(await page.getByRole('link', { name: 'Lead follow-up' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'leadFollowUp' }).count()).toBe(0);
    await shots('09-catalog');
    await page.getByRole('link', { name: 'Customer support reply' }).click();
    await page.locator('#start-heading', { hasText: 'Customer support reply' }).waitFor();
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.locator('.error', { hasText: 'Conversation ID is required' }).waitFor();
    const errors = await page.locator('form .error').allInnerTexts();
    expect(errors.length).toBeGreaterThanOrEqual(9);
    for (const e of errors) expect(e).not.toMatch(/Invalid input|expected|received/);
    expect(errors).toContain('Message is required');
    await shots('10-form-errors');
  });

  it('shows a webhook endpoint failing when its ping got a 404, and edits its events', async () => {
    receiver.script('/gone', [404, 404, 404]);
    const created = await api(APP, 'POST', '/api/webhooks', { site_id: siteId, url: receiver.url('/gone'), events: ['lead.created'] }, key);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const endpointId = created.body.data.id as string;
    await page.goto(site('/webhooks'));
    const row = page.locator(`tr[data-row-id="${endpointId}"]`);
    expect(await row.getByTestId('endpoint-health').innerText()).toContain('no deliveries yet');
    await row.getByRole('button', { name: 'Send a ping' }).click();
    await receiver.waitFor('/gone', 1);
    await eventually(
      async () => {
        await page.reload();
        return row.getByTestId('endpoint-health').innerText();
      },
      (t) => /failing/.test(t) && /answered 404/.test(t),
      'the endpoint to show failing with the 404',
    );
    await row.locator('summary', { hasText: 'Edit' }).click();
    const edit = row.getByRole('form', { name: `Edit ${receiver.url('/gone')}` });
    await edit.getByLabel('lead.updated').check();
    await edit.getByLabel('lead.created').uncheck();
    await edit.getByRole('button', { name: 'Save endpoint' }).click();
    await edit.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await eventually(
      async () => (await page.locator(`tr[data-row-id="${endpointId}"] td`).nth(1).innerText()).trim(),
      (t) => t === 'lead.updated',
      'the new events',
    );
    const listed = await api(APP, 'GET', `/api/webhooks?site_id=${siteId}`, undefined, key);
    expect(listed.body.data[0]).toMatchObject({ status: 'failing', events: ['lead.updated'] });
    await shots('11-webhooks');

    // Two groups named "events" in error on one page (the add form's, this endpoint's): each names its own message.
    const add = page.locator('form', { has: page.getByLabel('Endpoint URL') });
    await add.getByLabel('Endpoint URL').fill(receiver.url('/second'));
    for (const box of await add.getByRole('group', { name: 'Events' }).getByRole('checkbox').all()) await box.uncheck();
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    await add.getByRole('group', { name: 'Events' }).locator('.error').waitFor();
    if (!(await edit.isVisible())) await row.locator('summary', { hasText: 'Edit' }).click();
    await edit.getByLabel('lead.updated').uncheck();
    await edit.getByRole('button', { name: 'Save endpoint' }).click();
    await edit.getByRole('group', { name: 'Events' }).locator('.error').waitFor();
    const described = [
      await add.getByRole('group', { name: 'Events' }).getAttribute('aria-describedby'),
      await edit.getByRole('group', { name: 'Events' }).getAttribute('aria-describedby'),
    ];
    expect(new Set(described).size).toBe(2);
    for (const [i, form] of [add, edit].entries()) {
      expect(await page.locator(`[id="${described[i]}"]`).count()).toBe(1);
      expect(await form.locator(`[id="${described[i]}"]`).count()).toBe(1);
    }
    await screenshot(page, 'morning-11-webhooks-two-errors-1280');
  });

  it('writes an email from the Email page and says that mail stays in the outbox without SMTP', async () => {
    await page.goto(site('/email'));
    expect(await page.getByTestId('email-delivery').innerText()).toMatch(/outbox only.*SMTP_URL/s);
    await page.getByLabel('To', { exact: true }).fill('ada@shop.example');
    await page.getByLabel('Subject', { exact: true }).fill('Your running shoes');
    await page.getByLabel('Message', { exact: true }).fill('They are ready for pick-up.');
    await page.getByRole('button', { name: 'Send email' }).click();
    await page.getByRole('status').filter({ hasText: 'Kept in the outbox for ada@shop.example' }).waitFor();
    await page.locator('section[aria-labelledby="outbox-heading"] summary', { hasText: 'Your running shoes' }).waitFor();
    await page.getByRole('button', { name: 'Send email' }).click();
    await page.locator('.error', { hasText: 'Subject is required' }).waitFor();
    await shots('12-email-compose');
  });

  it('calls the agents’ team list a team profile and points to Members for access', async () => {
    await page.goto(site('/settings/team'));
    expect(await page.locator('#settings-heading').innerText()).toBe('Team profile');
    expect(await page.getByTestId('settings-group-intro').innerText()).toMatch(/gives no one access.*Members/s);
    await page.locator('legend', { hasText: 'People on the team' }).first().waitFor();
    await shots('13-team-profile');
  });
});
