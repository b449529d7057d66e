import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { base32Decode, totpAt, TOTP_PERIOD_SECONDS } from '@/lib/auth/totp';
import { launchBrowser, screenshot, signedUpPage } from './browser';
import { freePort } from './ports';
import { startServer, type RunningServer } from './server';

/**
 * Accounts a team lives in, in headless Chromium on a server of this suite's own (its account
 * outbox under DATA_DIR is where the mailed links are read, as a newcomer without SMTP does):
 * forgot password → mail → reset → sign in; the owner invites a colleague as a viewer → the
 * colleague signs up from the link and sees the site without key or member forms; two-factor
 * sign-in turned on in the console, then a sign-in with a code. Screenshots at 1280 and 390 px.
 */
const SUITE = inject('e2eBaseUrl');
const PASSWORD = 'correct horse battery staple';

describe.skipIf(!SUITE)('accounts a team lives in, end to end', () => {
  let app: RunningServer;
  let browser: Browser;
  const owner = `owner-${Date.now()}@example.com`;
  const colleague = `colleague-${Date.now()}@example.com`;
  let ownerPage: Page;
  let siteId: string;

  beforeAll(async () => {
    const port = await freePort();
    app = await startServer(port, { NEXTAUTH_URL: `http://127.0.0.1:${port}`, RATE_LIMIT_BACKEND: 'none' }, 'server-team');
    browser = await launchBrowser();
    ownerPage = await signedUpPage(browser, app.url, owner, PASSWORD);
    const res = await ownerPage.request.post(`${app.url}/api/visitors/sites`, { data: { name: 'Team shop', domain: 'team.example.com' } });
    expect(res.status()).toBe(201);
    siteId = (await res.json()).data.id;
  }, 320_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** The link of the newest mail to `to` in the account outbox that contains `marker`. */
  function mailedLink(to: string, marker: string): string {
    const dir = path.join(app.dataDir, 'account-outbox');
    const mails = readdirSync(dir)
      .sort()
      .reverse()
      .map((f) => readFileSync(path.join(dir, f), 'utf8'))
      .filter((m) => m.includes(`To: ${to}`) && m.includes(marker));
    expect(mails.length, `a mail to ${to} with ${marker}`).toBeGreaterThan(0);
    return new RegExp(`https?://\\S*${marker.replace(/[?]/g, '\\?')}\\S+`).exec(mails[0])![0];
  }

  async function pageAt(width: number): Promise<Page> {
    return (await browser.newContext({ viewport: { width, height: width < 500 ? 844 : 900 } })).newPage();
  }

  async function signIn(page: Page, email: string, password: string): Promise<void> {
    await page.goto(`${app.url}/signin`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('forgot password → the mailed link → a new password → sign in with it (the old one refused)', async () => {
    const page = await pageAt(390);
    await page.goto(`${app.url}/forgot-password`);
    await page.getByLabel('Email').fill(owner);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('status').or(page.locator('.notice')).first().waitFor();
    await screenshot(page, 'phone-team-forgot');
    const link = mailedLink(owner, 'reset-password?token=');
    await page.goto(link.replace(/^https?:\/\/[^/]+/, app.url));
    await page.getByLabel('New password').fill(`${PASSWORD} again`);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForURL(/\/(signin|console)/);
    await screenshot(page, 'phone-team-reset-done');

    const old = await pageAt(1280);
    await signIn(old, owner, PASSWORD);
    await old.getByRole('alert').first().waitFor();
    expect(old.url()).toContain('/signin');
    const fresh = await pageAt(1280);
    await signIn(fresh, owner, `${PASSWORD} again`);
    await fresh.waitForURL('**/console');
    ownerPage = fresh;
  });

  it('the owner invites a colleague as a viewer; the colleague signs up from the link and sees the site without key or member forms', async () => {
    await ownerPage.goto(`${app.url}/console/sites/${siteId}/members`);
    await ownerPage.getByLabel('Email').fill(colleague);
    await ownerPage.getByLabel('Role').selectOption('viewer');
    await ownerPage.getByRole('button', { name: 'Send invitation' }).click();
    await ownerPage.getByText(colleague).first().waitFor();
    await screenshot(ownerPage, 'team-members-invited');

    const link = mailedLink(colleague, 'invitations/accept?token=');
    for (const width of [390, 1280]) {
      if (width === 1280) {
        // The colleague, now an account: sign in from the link's page once more (the link was spent).
        const again = await pageAt(width);
        await signIn(again, colleague, PASSWORD);
        await again.waitForURL('**/console');
        await again.goto(`${app.url}/console/sites/${siteId}`);
        await screenshot(again, 'team-viewer-site');
        expect(await again.getByRole('button', { name: /create key|send invitation/i }).count()).toBe(0);
        // The menu leaves out what the role may not use: no keys, webhooks, platform apps or secrets.
        const developers = again.getByRole('group', { name: 'Developers', exact: true }).getByRole('link');
        expect(await developers.allTextContents()).toEqual(['API for each page', 'Tracking snippet', 'Allowed origins']);
        await again.goto(`${app.url}/console/sites/${siteId}/developers`);
        expect(await again.locator('main').textContent()).not.toContain('POST /api/keys');
        continue;
      }
      const page = await pageAt(width);
      await page.goto(link.replace(/^https?:\/\/[^/]+/, app.url));
      await screenshot(page, 'phone-team-invitation');
      await page.getByRole('link', { name: 'Create an account' }).click();
      await page.getByLabel('Email').fill(colleague);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.waitForURL('**/invitations/accept?token=*');
      await page.getByRole('button', { name: 'Accept the invitation' }).click();
      await page.waitForURL(`**/console/sites/${siteId}**`);
      await screenshot(page, 'phone-team-viewer-site');
      // A viewer's console: the team can be read, not changed; keys are not theirs to see.
      await page.goto(`${app.url}/console/sites/${siteId}/members`);
      await page.getByText(owner).first().waitFor();
      expect(await page.getByRole('button', { name: 'Send invitation' }).count()).toBe(0);
      const keys = await page.goto(`${app.url}/console/sites/${siteId}/keys`);
      expect(keys?.status()).toBe(404);
    }
    await ownerPage.reload();
    await ownerPage.getByRole('cell', { name: 'viewer' }).or(ownerPage.getByText('viewer')).first().waitFor();
  });

  it('turns on two-factor sign-in in the console; a sign-in then asks for the code and accepts it', async () => {
    await ownerPage.goto(`${app.url}/console/account/security`);
    await ownerPage.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = (await ownerPage.locator('form[aria-label="Turn on two-factor sign-in"] code').textContent())!.trim();
    // A code of the current step that will not turn over while it is typed and checked.
    const now = Date.now();
    if (now % (TOTP_PERIOD_SECONDS * 1000) > (TOTP_PERIOD_SECONDS - 5) * 1000) await new Promise((r) => setTimeout(r, 6000));
    await ownerPage.getByLabel('Code from your app').fill(totpAt(base32Decode(secret), Date.now()));
    await ownerPage.getByRole('button', { name: 'Turn on' }).click();
    await ownerPage
      .getByText(/recovery codes/i)
      .first()
      .waitFor();
    await screenshot(ownerPage, 'team-two-factor-on');

    const page = await pageAt(390);
    await signIn(page, owner, `${PASSWORD} again`);
    const code = page.getByLabel('Code from your authenticator app');
    await code.waitFor();
    await screenshot(page, 'phone-team-code-step');
    // The code of the step after the one that enabled it (a replay of that one is refused).
    const step = TOTP_PERIOD_SECONDS * 1000;
    await new Promise((r) => setTimeout(r, step - (Date.now() % step) + 200));
    await code.fill(totpAt(base32Decode(secret), Date.now()));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/console');
    await screenshot(page, 'phone-team-signed-in-with-code');
  }, 120_000);
});
