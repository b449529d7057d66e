import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startOidcProvider, type TestOpenIdProvider } from '@/tests/helpers/oidc-provider';
import { launchBrowser, screenshot } from './browser';
import { freePort } from './ports';
import { startServer, type RunningServer } from './server';

/**
 * Single sign-on in headless Chromium: a real OpenID Provider (oidc-provider on 127.0.0.1) and a
 * server of this suite's own, configured for it (OIDC_* and NEXTAUTH_URL, which the shared e2e
 * server does not have). The sign-in page's button goes to the provider's login page and back to
 * the console signed in; a refused sign-on comes back to the sign-in page with its reason; at
 * 1280 and 390 px.
 */
const SUITE = inject('e2eBaseUrl');

describe.skipIf(!SUITE)('single sign-on, end to end', () => {
  let op: TestOpenIdProvider;
  let app: RunningServer;
  let browser: Browser;
  const email = (who: string) => `${who}-${randomBytes(4).toString('hex')}@example.com`;

  beforeAll(async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    op = await startOidcProvider({ redirectUri: `${origin}/api/auth/callback/oidc` });
    app = await startServer(
      port,
      {
        NEXTAUTH_URL: origin,
        OIDC_ISSUER: op.issuer,
        OIDC_CLIENT_ID: op.clientId,
        OIDC_CLIENT_SECRET: op.clientSecret,
        OIDC_NAME: 'Test IdP',
        // The sign-ins below pass the callback's per-IP limit (AUTH_RATE_LIMIT_PER_IP, 20 a minute).
        RATE_LIMIT_BACKEND: 'memory',
      },
      'server-sso',
    );
    browser = await launchBrowser();
  }, 320_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await op?.close();
  });

  async function pageAt(width: number): Promise<Page> {
    return (await browser.newContext({ viewport: { width, height: width < 500 ? 844 : 900 } })).newPage();
  }

  /** From the sign-in page through the provider's login page, as a person does. */
  async function signInThroughProvider(page: Page, subject: string, shot: string): Promise<void> {
    await page.goto(`${app.url}/signin`);
    await page.getByRole('button', { name: 'Sign in with Test IdP' }).click();
    await page.waitForURL(`${op.issuer}/interaction/**`);
    await screenshot(page, `${shot}-provider`);
    await page.getByLabel('Account').fill(subject);
    await page.getByRole('button', { name: 'Continue' }).click();
  }

  const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  it('signs a new person in through the provider at 1280 px: a verified account, and sign-out ends it', async () => {
    const address = email('ada');
    op.accounts.set('ada', { email: address, email_verified: true, name: 'Ada Lovelace' });
    const page = await pageAt(1280);
    await page.goto(`${app.url}/signin`);
    await expect.poll(() => page.getByRole('button', { name: 'Sign in with Test IdP' }).isVisible()).toBe(true);
    await screenshot(page, 'sso-01-signin');

    await signInThroughProvider(page, 'ada', 'sso-02');
    await page.waitForURL(`${app.url}/console`);
    await screenshot(page, 'sso-03-console');
    const me = await page.request.get(`${app.url}/api/auth/me`);
    expect(me.status()).toBe(200);
    expect((await me.json()).data).toMatchObject({ email: address, name: 'Ada Lovelace', email_verified: true });
    // No "verify your address" banner: the provider verified it.
    expect(await page.getByRole('button', { name: 'Resend link' }).count()).toBe(0);

    const cookies = await page.context().cookies(app.url);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/signin');
    // The session ended on the server: the old cookie is refused.
    const session = cookies.find((c) => c.name === 'next-auth.session-token')!;
    const replay = await fetch(`${app.url}/api/auth/me`, { headers: { cookie: `${session.name}=${session.value}` } });
    expect(replay.status).toBe(401);
    expect(op.errors).toEqual([]);
  });

  it('comes back to the sign-in page with the reason when the provider has not verified the address', async () => {
    op.accounts.set('unverified', { email: email('unverified'), email_verified: false });
    const page = await pageAt(1280);
    await signInThroughProvider(page, 'unverified', 'sso-04');
    await page.waitForURL((url) => url.pathname === '/signin' && url.searchParams.get('error') === 'SsoEmailUnverified');
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'does not say that your email address is verified' }).isVisible()).toBe(true);
    await screenshot(page, 'sso-05-refused');
    expect((await page.request.get(`${app.url}/api/auth/me`)).status()).toBe(401);
    // A callback past the per-IP limit comes back with its own reason, which the page explains too.
    await page.goto(`${app.url}/signin?error=SsoRateLimited`);
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Too many sign-ins with Test IdP' }).isVisible()).toBe(true);
  });

  it('fits a phone at 390 px: the button, the provider, the console', async () => {
    op.accounts.set('grace', { email: email('grace'), email_verified: true, name: 'Grace Hopper' });
    const page = await pageAt(390);
    await page.goto(`${app.url}/signin`);
    const button = page.getByRole('button', { name: 'Sign in with Test IdP' });
    const box = (await button.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(box.height).toBeGreaterThanOrEqual(32);
    expect(await sideways(page)).toBe(0);
    await screenshot(page, 'phone-sso-signin');

    await signInThroughProvider(page, 'grace', 'phone-sso');
    await page.waitForURL(`${app.url}/console`);
    expect(await sideways(page)).toBe(0);
    await screenshot(page, 'phone-sso-console');
  });
});
