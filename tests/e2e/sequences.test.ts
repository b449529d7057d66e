import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-server';
import { startSmtpStandIn, type SmtpStandIn } from '../helpers/smtp-standin';
import { launchBrowser, PHONE, screenshot } from './browser';
import { freePort } from './ports';
import { startServer, type RunningServer } from './server';
import { api, eventually, provision, type Shop } from './shop';

/**
 * Automation → Sequences on a server of its own whose mail goes to the `smtp-server` stand-in:
 * the owner verifies a test address, builds a two-step sequence (an unknown variable is refused
 * next to its field), previews a step with a real lead and sends a test of it, enrolls a segment,
 * watches the first step go out in the figures, enrolls ticked leads from the leads list, reads
 * an enrollment's history and a lead's enrollments, unenrolls one lead; builds a step the email
 * agent (the OpenAI-compatible stand-in) drafts for review, reads the draft, edits and approves it;
 * and builds one without JavaScript. Screenshots at 1280 and 390 px.
 */
const SUITE = inject('e2eBaseUrl');

describe.skipIf(!SUITE)('console: sequences, end to end', () => {
  let smtp: SmtpStandIn;
  let model: LlmStandIn;
  let app: RunningServer;
  let shop: Shop;
  let browser: Browser;
  let page: Page;
  let segmentId: string;
  const leads: Record<string, string> = {};
  const site = (path = '') => `${app.url}/console/sites/${shop.siteId}${path}`;
  /** The next message the mail server receives once `act` is done. */
  const mailAfter = async (act: () => Promise<void>) => {
    const before = smtp.received.length;
    await act();
    return smtp.next(before);
  };
  const shots = async (name: string) => {
    await screenshot(page, `sequences-${name}-1280`);
    const phone = await page
      .context()
      .browser()!
      .newContext({ ...PHONE, storageState: await page.context().storageState() });
    const small = await phone.newPage();
    await small.goto(page.url());
    await screenshot(small, `sequences-${name}-390`);
    await phone.close();
  };

  beforeAll(async () => {
    [smtp, model] = await Promise.all([startSmtpStandIn(), startLlmStandIn()]);
    app = await startServer(
      await freePort(),
      {
        SMTP_URL: smtp.url,
        EMAIL_FROM: 'Trail Shop <hello@trail.example.com>',
        RATE_LIMIT_BACKEND: 'none',
        LLM_BASE_URL: model.url,
        LLM_API_KEY: 'standin-key',
        LLM_MODEL: 'stand-in-model',
        OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
      },
      'server-sequences',
    );
    shop = await provision(app.url, '/sequences');
    const segment = await api(app.url, 'POST', '/api/agents/tools/segments/create', { site_id: shop.siteId, name: 'Trial users' }, shop.key);
    expect(segment.status).toBe(201);
    segmentId = segment.body.segment.segment_id;
    const people = [
      { name: 'Ada Lovelace', email: 'ada@engines.example', company: 'Analytical Engines', segment_id: segmentId },
      { name: 'Grace Hopper', email: 'grace@navy.example', company: 'Navy', segment_id: segmentId },
      { name: 'Linus Pauling', email: 'linus@chem.example', segment_id: segmentId },
      { name: 'Mary Jackson', email: 'mary@wind.example', company: 'Wind Tunnel' },
    ];
    for (const p of people) {
      const res = await api(app.url, 'POST', '/api/agents/tools/leads/create', { site_id: shop.siteId, ...p }, shop.key);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      leads[p.name.split(' ')[0]] = res.body.lead.id;
    }
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.setDefaultTimeout(90_000);
    await page.goto(`${app.url}/signin`);
    await page.getByLabel('Email').fill(shop.owner.email);
    await page.getByLabel('Password').fill(shop.owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/console');
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await Promise.all([smtp?.close(), model?.close()]);
  });

  it('verifies a test address, builds a two-step sequence, previews and test-sends a step', { timeout: 300_000 }, async () => {
    // The owner's test address, verified with the code mailed to it.
    await page.goto(site('/email'));
    await page.getByLabel('Your address').fill('owner@trail.example.com');
    const codeMail = await mailAfter(() => page.getByRole('button', { name: 'Send code' }).click());
    const code = codeMail.parsed.subject!.match(/([A-Z0-9]{4}-[A-Z0-9]{4})/)![1];
    await page.getByLabel('Code for owner@trail.example.com').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.locator('section[aria-labelledby="recipients-heading"] td', { hasText: /^verified/ }).waitFor();

    // Automation → Sequences, empty at first.
    await page.goto(site());
    await page.locator('nav.site-nav').getByRole('link', { name: 'Sequences' }).click();
    await page.getByText('No sequences yet.').waitFor();
    await shots('empty');
    await page.getByRole('link', { name: 'New sequence' }).click();
    await page.waitForURL('**/sequences/new');

    await page.getByLabel('Name').fill('Trial welcome');
    await page.locator('#step-0-subject').fill('Hi {{first_name|there}}');
    await page.locator('#step-0-variants').fill('A question for {{company|your team}}');
    await page.locator('#step-0-body').fill('Hello {{first_name|there}} at {{company|your company}}, your {{favourite_color}} trial is ready.');
    await page.getByText('+ Add step 2').click();
    await page.locator('#step-1-delay').fill('3');
    await page.locator('#step-1-unit').selectOption('days');
    await page.locator('#step-1-subject').fill('Following up, {{first_name|there}}');
    await page.locator('#step-1-body').fill('Any questions about your trial, {{first_name|there}}?');
    await page.getByLabel('Daily cap (optional)').fill('200');
    await page.getByRole('button', { name: 'Create sequence' }).click();
    // Refused next to the body's field, with what was typed kept.
    await expect.poll(() => page.locator('#step-0-body-error').textContent()).toContain('Unknown variable {{favourite_color}}');
    expect(await page.locator('#step-1-subject').inputValue()).toBe('Following up, {{first_name|there}}');
    await screenshot(page, 'sequences-builder-error-1280');
    await page.locator('#step-0-body').fill('Hello {{first_name|there}} at {{company|your company}}, your trial is ready.');
    await page.getByRole('button', { name: 'Create sequence' }).click();
    await page.waitForURL(/\/sequences\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: /Trial welcome/ }).waitFor();
    expect(await page.locator('[data-step="1"] h3').innerText()).toContain('3 days after the previous step');

    // Preview with a real lead, then a test to the verified address (never to the lead).
    await page.getByLabel('Step', { exact: true }).selectOption('1');
    await page.getByLabel('Written for the lead').selectOption(leads.Ada);
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByTestId('step-preview');
    await preview.waitFor();
    expect(await preview.innerText()).toContain('Hi Ada');
    expect(await preview.innerText()).toContain('A question for Analytical Engines');
    expect(await preview.innerText()).toContain('Hello Ada at Analytical Engines, your trial is ready.');
    const test = await mailAfter(() => page.getByRole('button', { name: 'Send test' }).click());
    expect(test.envelope.to).toEqual(['owner@trail.example.com']);
    expect(test.parsed.subject).toBe('[Test] Hi Ada');
    expect(test.parsed.text).toContain('Hello Ada at Analytical Engines, your trial is ready.');
    await page.getByText('“[Test] Hi Ada” sent to owner@trail.example.com.').waitFor();
    expect(smtp.received.some((m) => m.envelope.to.includes('ada@engines.example'))).toBe(false);

    // The builder over the saved sequence.
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.waitForURL('**/edit');
    expect(await page.locator('#step-1-unit').inputValue()).toBe('days');
    await shots('builder');
  });

  it('enrolls a segment, sends the first step, shows the figures, the history and the lead’s enrollment', { timeout: 300_000 }, async () => {
    await page.goto(site('/sequences'));
    await page.getByRole('link', { name: 'Trial welcome' }).click();
    await page.waitForURL(/\/sequences\/[0-9a-f-]{36}$/);
    const sequencePage = page.url();
    const before = smtp.received.length;
    const segmentAddresses = ['ada@engines.example', 'grace@navy.example', 'linus@chem.example'];
    await page.getByLabel('Segment').selectOption(segmentId);
    await page.getByRole('button', { name: 'Enroll segment' }).click();
    await page.getByText('3 enrolled · 0 already enrolled · 0 suppressed (skipped)').waitFor();

    // The worker sends step 1 to the three leads of the segment, each written for its lead.
    await eventually(
      async () => smtp.received.slice(before).filter((m) => segmentAddresses.some((a) => m.envelope.to.includes(a))).length,
      (n) => n === 3,
      'step 1 sent to the segment',
    );
    const toGrace = smtp.received.find((m) => m.envelope.to.includes('grace@navy.example'))!;
    expect(['Hi Grace', 'A question for Navy']).toContain(toGrace.parsed.subject);
    expect(toGrace.parsed.text).toContain('Hello Grace at Navy, your trial is ready.');
    await eventually(
      async () =>
        (await api(app.url, 'GET', `/api/sequences/${sequencePage.split('/').pop()}?site_id=${shop.siteId}`, undefined, shop.key)).body.data,
      (d) => d.figures.sent === 3,
      'the sends recorded',
    );
    await page.reload();
    const figures = page.getByTestId('sequence-figures');
    expect(await figures.innerText()).toMatch(/Enrolled\s+3/);
    expect(await figures.innerText()).toMatch(/Sent\s+3/);
    expect(await page.locator('[data-step="0"] ol.funnel').innerText()).toMatch(/Sent\s+3/);
    expect(await page.locator('[data-step="0"] table.ab-split').count()).toBe(1);

    // From the leads list: Mary (new) and Ada (enrolled already) ticked.
    await page.goto(site('/leads'));
    await page.getByLabel('Select Mary Jackson').check();
    await page.getByLabel('Select Ada Lovelace').check();
    await page.getByRole('button', { name: 'Enroll in sequence' }).click();
    await page.getByText('1 enrolled · 1 already enrolled · 0 suppressed (skipped)').waitFor();
    await screenshot(page, 'sequences-leads-1280');

    // An enrollment's history, and unenrolling one lead (confirmed).
    await page.goto(sequencePage);
    const ada = page.locator(`tr:has(a[href$="/leads/${leads.Ada}"])`);
    await ada.locator('details.history summary').click();
    expect(await ada.locator('[data-history-step="0"]').innerText()).toMatch(/Step 1.*sent/);
    const mary = page.locator(`tr:has(a[href$="/leads/${leads.Mary}"])`);
    await mary.getByRole('button', { name: 'Unenroll' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Unenroll' }).click();
    await mary.getByText('removed').waitFor();
    await shots('sequence');

    // The lead's page lists its enrollment.
    await page.goto(site(`/leads/${leads.Grace}`));
    const enrolled = page.locator('section[aria-labelledby="sequences-heading"]');
    expect(await enrolled.innerText()).toContain('Trial welcome');
    expect(await enrolled.innerText()).toContain('next: 2 of 2');
    await shots('lead');

    await page.goto(site('/sequences'));
    expect(await page.getByTestId('sequence-leads').innerText()).toMatch(/4 enrolled/);
    // Mary's first step may have gone out before she was unenrolled.
    expect(await page.getByTestId('sequence-emails').innerText()).toMatch(/^[34] sent/);
    await shots('list');
  });

  it('shows a draft of the email agent for review, and sends it as the owner edited and approved it', { timeout: 300_000 }, async () => {
    await page.goto(site('/sequences/new'));
    await page.getByLabel('Name').fill('Boot intro');
    await page.locator('#step-0-subject').fill('An idea for {{company|your team}}');
    await page.locator('#step-0-mode').selectOption('agent-review');
    await page.locator('#step-0-body').fill('Introduce our trail boots to {{first_name|there}}; mention the free returns.');
    await page.getByRole('button', { name: 'Create sequence' }).click();
    await page.waitForURL(/\/sequences\/[0-9a-f-]{36}$/);
    const sequenceId = page.url().split('/').pop()!;
    await page.getByText('No drafts wait for review.').waitFor();

    model.queue({ text: 'Dear Grace,\n\nOur trail boots carried a whole fleet through winter. Returns are free.\n\nBest, the Trail Shop' });
    const enrolled = await api(
      app.url,
      'POST',
      `/api/sequences/${sequenceId}/enrollments`,
      { site_id: shop.siteId, lead_ids: [leads.Grace] },
      shop.key,
    );
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(200);
    await eventually(
      async () => (await api(app.url, 'GET', `/api/sequences/${sequenceId}?site_id=${shop.siteId}`, undefined, shop.key)).body.data.enrollments[0],
      (e) => e?.draft?.approved === false,
      'the draft written',
    );
    // The agent was asked with the step's instructions for this lead; nothing went to her yet.
    expect(model.requests.some((r) => JSON.stringify(r.messages).includes('Introduce our trail boots to Grace; mention the free returns.'))).toBe(
      true,
    );
    const sentBefore = smtp.received.filter((m) => m.envelope.to.includes('grace@navy.example')).length;

    await page.reload();
    const review = page.locator('section[aria-labelledby="review-heading"]');
    expect(await page.locator('#review-heading').innerText()).toBe('Drafts to review (1)');
    const draft = review.locator(`[data-draft="${leads.Grace}"]`);
    expect(await draft.innerText()).toContain('Grace Hopper');
    expect(await draft.innerText()).toContain('grace@navy.example · step 1');
    expect(await draft.innerText()).toContain('An idea for Navy');
    expect(await draft.locator('.draft-preview').innerText()).toContain('Our trail boots carried a whole fleet through winter.');
    await draft.getByText('Read, edit and approve').click();
    expect(await draft.getByLabel('Body').inputValue()).toContain('Best, the Trail Shop');
    await shots('review');

    // The owner's edits go out, once approved.
    await draft.getByLabel('Subject').fill('Boots for the Navy');
    await draft.getByLabel('Body').fill('Dear Grace,\n\nOur trail boots carried a whole fleet through winter.\n\nBest, Sam at the Trail Shop');
    const mail = await mailAfter(() => draft.getByRole('button', { name: 'Approve and send' }).click());
    expect(mail.envelope.to).toEqual(['grace@navy.example']);
    expect(mail.parsed.subject).toBe('Boots for the Navy');
    expect(mail.parsed.text).toContain('Best, Sam at the Trail Shop');
    expect(smtp.received.filter((m) => m.envelope.to.includes('grace@navy.example'))).toHaveLength(sentBefore + 1);
    await page.getByText('No drafts wait for review.').waitFor();
    await eventually(
      async () => (await api(app.url, 'GET', `/api/sequences/${sequenceId}?site_id=${shop.siteId}`, undefined, shop.key)).body.data,
      (d) => d.figures.sent === 1 && d.figures.completed === 1,
      'the approved draft recorded as sent',
    );
  });

  it('builds a sequence and pauses it without JavaScript', { timeout: 120_000 }, async () => {
    const noScript = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
    const p = await noScript.newPage();
    await p.goto(site('/sequences/new'));
    await p.getByLabel('Name').fill('Plain follow-up');
    await p.locator('#step-0-subject').fill('Hello {{first_name|there}}');
    await p.locator('#step-0-body').fill('Just checking in.');
    await p.getByRole('button', { name: 'Create sequence' }).click();
    await p.waitForURL(/\/sequences\/[0-9a-f-]{36}$/);
    await p.getByRole('heading', { name: /Plain follow-up/ }).waitFor();
    await p.getByRole('button', { name: 'Pause' }).click();
    await p.getByRole('button', { name: 'Resume' }).waitFor();
    expect(await p.locator('#sequence-heading .badge').innerText()).toBe('paused');
    await noScript.close();
  });
});
