import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createSiteInConsole, launchBrowser, screenshot, signedUpPage } from './browser';
import { ARTIFACTS, startServer, type RunningServer } from './server';
import { apiCall, ownerSession, readWriteKey, type ApiInit } from './shop';

const base = inject('e2eBaseUrl');

const api = (origin: string, apiPath: string, init?: ApiInit) => apiCall(origin, apiPath, init, 0);

/** The text of a code block (the tracking snippet as the page shows it, unescaped). */
const codeOf = async (page: Page, testId: string) => (await page.getByTestId(testId).textContent())?.trim() ?? '';

/** The forms of a page that post a server action (React renders their `$ACTION_` fields), but the header's sign-out. */
const actionForms = (page: Page): Locator =>
  page.locator('form:has(input[name^="$ACTION_"])').filter({ hasNot: page.getByRole('button', { name: 'Sign out' }) });

/**
 * The console as an owner meets it before their coffee: every form of a site's pages answers
 * when the browser posts it without JavaScript, a form posted from another origin is refused
 * 403, the tag and links name one origin, and dates are in the site's time zone.
 */
describe.skipIf(!base)('the console an owner opens every morning: forms without JavaScript, one origin, the site’s time zone', () => {
  let browser: Browser;
  let page: Page;
  let noScript: BrowserContext;
  const email = `e2e-morning-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'a long enough password';
  let siteId = '';
  let site = '';
  let session: Record<string, string> = {};

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await signedUpPage(browser, base, email, password);
    siteId = await createSiteInConsole(page, 'Morning Shop');
    site = `/console/sites/${siteId}`;
    // What the rows' forms act on: a key, an origin, a lead, an invitation.
    session = await ownerSession(base, email, password);
    const key = await readWriteKey(base, session, siteId, 'morning');
    const withKey = { 'x-api-key': key };
    expect(
      (await api(base, `/api/sites/${siteId}/origins`, { method: 'POST', headers: session, body: { origin: 'https://app.morning.example' } })).status,
    ).toBe(201);
    const lead = await api(base, '/api/agents/tools/leads/create', {
      method: 'POST',
      headers: withKey,
      body: { site_id: siteId, name: 'Ada', email: 'ada@morning.example' },
    });
    expect(lead.status).toBe(201);
    await api(base, `/api/sites/${siteId}/members`, { method: 'POST', headers: session, body: { email: 'grace@morning.example', role: 'member' } });
    noScript = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 1280, height: 900 },
      storageState: await page.context().storageState(),
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('answers every form of every site page posted without JavaScript within a second: 303 to the page, or the page with its errors', async () => {
    // Every page of the site's menu, and the pages below them that hold forms.
    await page.goto(`${base}${site}/keys`);
    const keyPage = await page.locator(`a[href^="${site}/keys/"]`).first().getAttribute('href');
    await page.goto(`${base}${site}/leads`);
    const leadPage = await page.locator(`a[href^="${site}/leads/"]`).first().getAttribute('href');
    const menu = await page
      .locator(`nav a[href^="${site}"]`)
      .evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
    const pages = [...new Set([...menu, keyPage!, leadPage!, `${site}/workflows/start`])];
    expect(pages.length).toBeGreaterThan(15);

    const tab = await noScript.newPage();
    const answers: { page: string; form: number; status: number; ms: number; where: string }[] = [];
    for (const pagePath of pages) {
      for (let i = 0; ; i++) {
        await tab.goto(`${base}${pagePath}`);
        const forms = actionForms(tab);
        if (i >= (await forms.count())) break;
        const form = forms.nth(i);
        // A confirmation without JavaScript is a disclosure: open it as a person would.
        const closed = form.locator('xpath=ancestor::details[not(@open)][1]/summary');
        if (await closed.count()) await closed.click();
        const submit = form.locator('button[type="submit"], button:not([type])').last();
        // A post that hangs (the fault this walks for) never answers: the wait's limit fails it. How long each
        // took is printed below, not asserted (a loaded machine is slower, not wrong).
        const [response] = await Promise.all([
          tab.waitForResponse((r) => r.request().method() === 'POST' && r.request().isNavigationRequest(), { timeout: 10_000 }),
          submit.click(),
        ]);
        // The server's answer time (request sent → first byte), not the browser's own work around the click.
        const ms = Math.round(response.request().timing().responseStart);
        await tab.waitForLoadState('load');
        answers.push({ page: pagePath, form: i, status: response.status(), ms, where: new URL(tab.url()).pathname });
        if (response.status() === 303) {
          // Back on a console page (the one posted from, or where the action leads: a deleted row's list).
          expect(response.headers().location, `${pagePath} #${i}`).toMatch(/^\/console/);
        } else {
          expect(response.status(), `${pagePath} #${i}`).toBe(200);
          // The page again, with the form's errors (or the result shown once) in view.
          const said = tab.locator('p.error, .form-error:not([hidden]), [role="status"]:not(:empty), [data-testid="shown-once"]');
          expect(await said.count(), `${pagePath} #${i} shows why`).toBeGreaterThan(0);
        }
      }
    }
    console.log(
      `[morning-forms] ${answers.length} forms posted without JavaScript:\n${answers.map((a) => `  ${a.status} ${a.ms} ms ${a.page} #${a.form} → ${a.where}`).join('\n')}`,
    );
    expect(answers.filter((a) => a.status === 303).length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
    await tab.close();
  }, 600_000);

  it('adds an origin without JavaScript: 303 back to the page that lists it; a bad one comes back with its message', async () => {
    const tab = await noScript.newPage();
    await tab.goto(`${base}${site}/origins`);
    await tab.getByRole('textbox', { name: 'Origin' }).fill('https://shop.morning.example');
    const [added] = await Promise.all([
      tab.waitForResponse((r) => r.request().method() === 'POST'),
      tab.getByRole('button', { name: 'Add origin' }).click(),
    ]);
    expect(added.status()).toBe(303);
    expect(added.headers().location).toBe(`${site}/origins`);
    await tab.waitForLoadState('load');
    expect(await tab.locator('main').textContent()).toContain('https://shop.morning.example');
    await tab.getByRole('textbox', { name: 'Origin' }).fill('not an origin');
    const [refused] = await Promise.all([
      tab.waitForResponse((r) => r.request().method() === 'POST'),
      tab.getByRole('button', { name: 'Add origin' }).click(),
    ]);
    expect(refused.status()).toBe(200);
    await tab.locator('#field-origin-error').waitFor();
    expect(await tab.getByRole('textbox', { name: 'Origin' }).inputValue()).toBe('not an origin');
    await screenshot(tab, 'morning-forms-01-origin-refused-without-js');
    const phone = await noScript.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(`${base}${site}/keys`);
    await phone.getByLabel('Name', { exact: true }).fill('Checkout server');
    const [created] = await Promise.all([
      phone.waitForResponse((r) => r.request().method() === 'POST'),
      phone.getByRole('button', { name: 'Create key' }).click(),
    ]);
    // A new key is shown once: the page comes back with it rather than a redirect that would lose it.
    expect(created.status()).toBe(200);
    await phone.locator('.secret-value').first().waitFor();
    expect(await phone.locator('main').textContent()).toContain('Checkout server');
    await screenshot(phone, 'morning-forms-02-key-created-without-js-phone');
    await phone.close();
    await tab.close();
  }, 120_000);

  /**
   * A page of the site (`pagePath`) in the browser without JavaScript, with the hidden fields of its form
   * that holds the control `control` finds, and the session cookie to post it with.
   */
  const formWithoutScript = async (pagePath: string, control: (tab: Page) => Locator) => {
    const tab = await noScript.newPage();
    await tab.goto(`${base}${site}${pagePath}`);
    const fields = await actionForms(tab)
      .filter({ has: control(tab) })
      .locator('input[type="hidden"]')
      .evaluateAll((inputs) => inputs.map((i) => [(i as HTMLInputElement).name, (i as HTMLInputElement).value]));
    const cookie = (await noScript.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    return { tab, fields, cookie };
  };

  it('refuses a form posted from another origin with 403, not a logged 500', async () => {
    const { tab, fields, cookie } = await formWithoutScript('/origins', (t) => t.getByRole('textbox', { name: 'Origin' }));
    const post = (origin: string, value: string) => {
      const body = new FormData();
      for (const [name, v] of fields) body.append(name, v);
      body.append('origin', value);
      return fetch(`${base}${site}/origins`, { method: 'POST', headers: { cookie, origin }, body, redirect: 'manual' });
    };
    const refused = await post('https://evil.example', 'https://evil.example');
    expect(refused.status).toBe(403);
    const elsewhere = await fetch(`${base}${site}/origins`, {
      method: 'POST',
      headers: {
        cookie,
        origin: 'https://evil.example',
        'next-action': fields.find(([n]) => n.includes(':0'))?.[1] ?? 'x',
        'content-type': 'text/plain',
      },
      body: '[]',
    });
    expect(elsewhere.status).toBe(403);
    const same = await post(base, 'https://same.morning.example');
    expect(same.status).toBe(303);
    await tab.reload();
    const listed = (await tab.locator('main').textContent()) ?? '';
    expect(listed).toContain('https://same.morning.example');
    expect(listed).not.toContain('https://evil.example');
    const log = readFileSync(path.join(ARTIFACTS, 'server.log'), 'utf8');
    expect(log).not.toContain('Invalid Server Actions request');
    expect(log).not.toMatch(/does not match `origin` header/);
    await tab.close();
  });

  it('names one origin for the tag on the Overview and the Snippet page: the request’s, as it was reached', async () => {
    // A site no visit has reached yet (no lead either): its Overview shows the tag to paste.
    const created = await api(base, '/api/visitors/sites', { method: 'POST', headers: session, body: { name: 'Quiet Shop' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const fresh = created.body.data.id;
    for (const origin of [base, base.replace('127.0.0.1', 'localhost')]) {
      const tab = await noScript.newPage();
      if (origin !== base) {
        // The session cookie belongs to the host it was set on: sign in on this one (without JavaScript: a 303).
        await tab.goto(`${origin}/signin`);
        await tab.getByLabel('Email').fill(email);
        await tab.getByLabel('Password').fill(password);
        await tab.getByRole('button', { name: 'Sign in' }).click();
        await tab.waitForURL('**/console');
      }
      await tab.goto(`${origin}/console/sites/${fresh}`);
      expect(await codeOf(tab, 'overview-snippet')).toContain(`src="${origin}/t.js"`);
      await tab.goto(`${origin}/console/sites/${fresh}/snippet`);
      expect(await codeOf(tab, 'tracking-snippet')).toContain(`src="${origin}/t.js"`);
      await tab.close();
    }
    // Without PUBLIC_URL the server says at start where mail sent by jobs points.
    expect(readFileSync(path.join(ARTIFACTS, 'server.log'), 'utf8')).toContain(
      'PUBLIC_URL is unset: links in mail sent by background jobs point at http://localhost:',
    );
  });

  it('shows dates in the site’s time zone, offered from the browser, the UTC instant on hover', async () => {
    // A site whose zone nobody has set (the walk above saved the General form as it came: UTC).
    const created = await api(base, '/api/visitors/sites', { method: 'POST', headers: session, body: { name: 'Berlin Shop' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const berlinId: string = created.body.data.id;
    const site = `/console/sites/${berlinId}`;
    const berlinKey = (
      await api(base, '/api/keys', { method: 'POST', headers: session, body: { name: 'berlin', scopes: ['read'], site_id: berlinId } })
    ).body.data.apiKey;
    const berlin = await browser.newContext({
      timezoneId: 'Europe/Berlin',
      viewport: { width: 1280, height: 900 },
      storageState: await page.context().storageState(),
    });
    const tab = await berlin.newPage();
    await tab.goto(`${base}${site}/keys`);
    expect(await tab.locator('main time').first().getAttribute('title')).toMatch(/ UTC$/);
    await tab.goto(`${base}${site}/general`);
    const zone = tab.getByRole('combobox', { name: 'Time zone' });
    // A site without a zone: the browser's own is offered.
    await expect.poll(() => zone.inputValue()).toBe('Europe/Berlin');
    expect(await tab.locator('#field-timezone-hint').textContent()).toContain('Not set yet');
    await screenshot(tab, 'morning-forms-03-time-zone-offered');
    await tab.getByRole('button', { name: 'Save time zone' }).click();
    await tab.getByText('Saved: Europe/Berlin.').waitFor();
    await tab.goto(`${base}${site}/keys`);
    const title = (await tab.locator('main time').first().getAttribute('title')) ?? '';
    // "Dec 6, 2026, 3:40 AM GMT+1 · Dec 6, 2026, 2:40 AM UTC"
    expect(title).toMatch(/GMT\+1 · .* UTC$/);
    const sub = tab.locator('main time + .sub').first();
    if (await sub.count()) expect(await sub.textContent()).toMatch(/GMT\+1$/);
    await screenshot(tab, 'morning-forms-04-keys-in-berlin');
    // Outside a site's pages (the account's, the list of sites) dates are in the person's own zone, the browser's.
    for (const where of ['/console/account/security', '/console']) {
      await tab.goto(`${base}${where}`);
      await expect.poll(() => tab.locator('main time').first().getAttribute('title'), { message: where }).toMatch(/GMT\+1 · .* UTC$/);
    }
    await tab.goto(`${base}/console/account/security`);
    await expect.poll(() => tab.locator('main time + .sub').first().textContent()).toMatch(/GMT\+1$/);
    await screenshot(tab, 'morning-forms-04-account-in-berlin');
    // The API counts the site's days in the same zone (`timezone=site`; its default stays UTC).
    const days = await api(base, `/sites/${berlinId}/analytics/overview?timezone=site`, { headers: { 'x-api-key': berlinKey } });
    expect(days.status, JSON.stringify(days.body)).toBe(200);
    expect(days.body.data.range.timezone).toBe('Europe/Berlin');
    const phone = await (
      await browser.newContext({ viewport: { width: 390, height: 844 }, storageState: await page.context().storageState() })
    ).newPage();
    await phone.goto(`${base}${site}/general`);
    expect(await phone.getByRole('combobox', { name: 'Time zone' }).inputValue()).toBe('Europe/Berlin');
    await screenshot(phone, 'morning-forms-05-time-zone-phone');
    await phone.goto(`${base}${site}/keys`);
    await screenshot(phone, 'morning-forms-06-keys-phone');
    await berlin.close();
  });

  it('refuses a name that is not a time zone in words, without JavaScript too', async () => {
    const { tab, fields, cookie } = await formWithoutScript('/general', (t) => t.getByRole('combobox', { name: 'Time zone' }));
    const body = new FormData();
    for (const [name, v] of fields) body.append(name, v);
    body.append('timezone', 'Mars/Olympus');
    const res = await fetch(`${base}${site}/general`, { method: 'POST', headers: { cookie, origin: base }, body, redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('“Mars/Olympus” is not a time zone: choose one from the list, e.g. Europe/Berlin');
    await tab.close();
  });
});

/** A server whose PUBLIC_URL names another port: everything names PUBLIC_URL, and the start says it does not answer there. */
describe.skipIf(!base)('PUBLIC_URL: one origin for the tag and the links, whatever host the console is reached at', () => {
  let server: RunningServer;
  let browser: Browser;
  const port = Number(process.env.E2E_PORT ?? 3600) + 2;
  const configured = `http://localhost:${port + 7}`;

  beforeAll(async () => {
    server = await startServer(port, { PUBLIC_URL: configured }, 'morning-public-url');
    browser = await launchBrowser();
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('names PUBLIC_URL in the Overview and the Snippet page, and warns at start that the server does not listen there', async () => {
    const page = await signedUpPage(browser, server.url, `e2e-public-${randomBytes(4).toString('hex')}@example.com`, 'a long enough password');
    await page.getByLabel('Name', { exact: true }).fill('Public Shop');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.waitForURL(/\/console\/sites\/[0-9a-f-]{36}$/);
    expect(await codeOf(page, 'overview-snippet')).toContain(`src="${configured}/t.js"`);
    await page.goto(`${page.url()}/snippet`);
    expect(await codeOf(page, 'tracking-snippet')).toContain(`src="${configured}/t.js"`);
    await screenshot(page, 'morning-forms-07-snippet-public-url');
    const log = readFileSync(path.join(ARTIFACTS, 'morning-public-url.log'), 'utf8');
    expect(log).toContain(`PUBLIC_URL is ${configured} but this server listens on port ${port}`);
  });
});
