import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createKeyInConsole, createSiteInConsole, launchBrowser, screenshot, signedUpPage } from './browser';

const base = inject('e2eBaseUrl');
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/**
 * A person in the console: a lead built from a real visit (the tracking routes), its timeline with
 * the visit's pages, a conversion and notes (one through the API, one in the console), the export of
 * everything about them, and erasure — of the lead, and of an anonymous visitor from its visit's page.
 */
describe.skipIf(!base)('console: a person’s timeline, notes, export and erasure', () => {
  let browser: Browser;
  let page: Page;
  let siteId = '';
  let apiKey = '';
  let leadId = '';
  const email = `ada-${randomBytes(4).toString('hex')}@example.com`;

  const api = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'user-agent': UA, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { success: boolean; data: any };
    expect(res.status, JSON.stringify(json)).toBeLessThan(300);
    return json.data;
  };
  /** A visit through the tracking routes: two pages, optionally a conversion; answers the session. */
  const visit = async (conversion: boolean) => {
    const sa = { 'x-sa-api-key': apiKey };
    const s = await api('POST', '/api/visitors/session', sa, {
      site_id: siteId,
      fingerprint: `fp-${randomBytes(6).toString('hex')}`,
      url: 'https://shop.example.com/',
    });
    for (const url of ['https://shop.example.com/', 'https://shop.example.com/pricing']) {
      await api('POST', '/api/visitors/track', sa, { site_id: siteId, session_id: s.session_id, event_type: 'pageview', url });
    }
    if (conversion) {
      await api('POST', '/api/visitors/track', sa, {
        site_id: siteId,
        session_id: s.session_id,
        event_type: 'conversion',
        event_name: 'trial_started',
        url: 'https://shop.example.com/pricing',
      });
    }
    return s as { session_id: string; visitor_id: string };
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await signedUpPage(browser, base, `e2e-person-${randomBytes(4).toString('hex')}@example.com`, 'a long enough password');
    page.setDefaultTimeout(90_000);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows the lead’s timeline from a real visit, with notes from the API and the console', { timeout: 300_000 }, async () => {
    siteId = await createSiteInConsole(page, 'Person Shop');
    apiKey = await createKeyInConsole(page, 'Shop server');

    const s = await visit(true);
    const identified = await api(
      'POST',
      '/api/visitors/identify',
      { 'x-sa-api-key': apiKey },
      { site_id: siteId, session_id: s.session_id, email, firstName: 'Ada', lastName: 'Lovelace' },
    );
    leadId = identified.lead_id;
    await api('POST', `/api/leads/${leadId}/notes`, { 'x-api-key': apiKey }, { site_id: siteId, body: 'Asked for a demo through the chat.' });

    await page.goto(`${base}/console/sites/${siteId}/leads/${leadId}`);
    const timeline = page.locator('section[aria-labelledby="timeline-heading"]');
    await timeline.getByText('Visited /').first().waitFor();
    expect(await timeline.textContent()).toContain('Converted: trial_started');
    expect(await timeline.textContent()).toContain('Asked for a demo through the chat.');
    expect(await timeline.textContent()).toContain('/ → /pricing');

    await page.getByLabel('New note').fill('Called back: wants the yearly plan.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await timeline.getByText('Called back: wants the yearly plan.').waitFor();
    expect(await page.getByLabel('New note').inputValue()).toBe('');
    await screenshot(page, 'crm-person-lead-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'crm-person-lead-390');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('exports everything about the person', { timeout: 120_000 }, async () => {
    const href = await page.getByRole('link', { name: 'Export data' }).getAttribute('href');
    const res = await page.request.get(`${base}${href}`);
    expect(res.status()).toBe(200);
    const { data } = (await res.json()) as { data: { lead: { email: string }; sessions: { events: unknown[] }[]; notes: unknown[] } };
    expect(data.lead.email).toBe(email);
    expect(data.sessions[0].events).toHaveLength(3);
    expect(data.notes).toHaveLength(2);
  });

  it('erases the person once their email is typed', { timeout: 180_000 }, async () => {
    const erase = page.locator('section[aria-labelledby="erase-heading"]');
    await erase.getByLabel(/Type the lead’s email/).fill('someone@else.example');
    await erase.getByRole('button', { name: 'Erase this person' }).click();
    await erase.locator('.error').waitFor();
    expect(await erase.locator('.error').textContent()).toContain(email);
    await erase.getByLabel(/Type the lead’s email/).fill(email);
    await erase.getByRole('button', { name: 'Erase this person' }).click();
    await page.waitForURL('**/leads?erased=1');
    await page.getByText('The person’s data was erased.').waitFor();
    expect(await page.locator('main').innerText()).not.toContain(email);
    const gone = await page.request.get(`${base}/api/leads/${leadId}/export?site_id=${siteId}`);
    expect(gone.status()).toBe(404);
    const audit = await page.request.get(`${base}/api/sites/${siteId}/audit`);
    const entries = ((await audit.json()) as { data: { kind: string; detail: unknown }[] }).data;
    expect(entries.find((e) => e.kind === 'person_erased')?.detail).toMatchObject({ sessions: 1, events: 3 });
    expect(JSON.stringify(entries)).not.toContain(email);
  });

  it('erases an anonymous visitor from its visit’s page', { timeout: 180_000 }, async () => {
    const s = await visit(false);
    await page.goto(`${base}/console/sites/${siteId}/sessions/${s.session_id}`);
    const card = page.locator('section[aria-labelledby="person-data-heading"]');
    await card.getByLabel('Type ERASE to confirm').waitFor();
    await screenshot(page, 'crm-person-session-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'crm-person-session-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    await card.getByLabel('Type ERASE to confirm').fill('ERASE');
    await card.getByRole('button', { name: 'Erase this person' }).click();
    await page.waitForURL('**/sessions?erased=1');
    const read = await fetch(`${base}/api/visitors/session?site_id=${siteId}&session_id=${s.session_id}`, { headers: { 'x-sa-api-key': apiKey } });
    expect(read.status).toBe(404);
  });
});
