import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { ARTIFACTS } from './server';

/** The system Chromium (Debian's `chromium` package); a browser is never downloaded. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumAvailable = () => existsSync(CHROMIUM);

/**
 * `backForwardCache`: keep Chromium's back/forward cache on (Playwright turns it off by default),
 * for pages that must behave when they are restored from it.
 */
export function launchBrowser({ backForwardCache = false }: { backForwardCache?: boolean } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    ...(backForwardCache ? { ignoreDefaultArgs: ['--disable-back-forward-cache'] } : {}),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/** A browser and one console-sized page (1280×860) for a suite; `timeout`, the page's default wait, for a busy machine. */
export async function openConsolePage(timeout?: number): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchBrowser();
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
  if (timeout) page.setDefaultTimeout(timeout);
  return { browser, page };
}

/** A full-page screenshot kept as a test artifact: test-results/e2e/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** The password of the accounts the suites sign up through the console. */
export const CONSOLE_PASSWORD = 'a long enough password';

/** Signs up `email` through the console's form on `page`; resolves on the console's first page. */
export async function signUp(page: Page, base: string, email: string, password = CONSOLE_PASSWORD): Promise<void> {
  await page.goto(`${base}/signup`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/console');
}

/** A new account signed up through the console's form, in a fresh 1280 px page that stays signed in. */
export async function signedUpPage(browser: Browser, base: string, email: string, password: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await signUp(page, base, email, password);
  return page;
}

/** The options of a browser context that is a phone: 390×844, mobile, touch. */
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** The owner at a desk (1280×900, with `desk` options) and on a phone, each in a browser context of its own and signed in. */
export async function deskAndPhone(
  browser: Browser,
  signIn: (page: Page) => Promise<void>,
  desk: BrowserContextOptions = {},
): Promise<{ desk: Page; phone: Page }> {
  const deskPage = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, ...desk })).newPage();
  await signIn(deskPage);
  const phone = await (await browser.newContext(PHONE)).newPage();
  await signIn(phone);
  return { desk: deskPage, phone };
}

/** Signs `owner` in through the console's form on `page`; resolves on the console's first page. */
export async function signIn(page: Page, base: string, owner: { email: string; password: string }): Promise<void> {
  await page.goto(`${base}/signin`);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/console');
}

/** Creates a site named `name` from the console's first page (no domain); answers its id once its page is open. */
export async function createSiteInConsole(page: Page, name: string): Promise<string> {
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Create site' }).click();
  await page.waitForURL('**/console/sites/*');
  return new URL(page.url()).pathname.split('/').pop()!;
}

/** Creates an API key named `name` (read, and write unless `write: false`) from a page of the site; answers the key, shown once. */
export async function createKeyInConsole(page: Page, name: string, { write = true } = {}): Promise<string> {
  await page.getByRole('link', { name: 'API keys' }).click();
  await page.waitForURL('**/keys');
  await page.getByLabel('Name', { exact: true }).fill(name);
  if (write) await page.getByLabel('write', { exact: true }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByTestId('new-api-key');
  await shown.waitFor();
  return (await shown.textContent())!.trim();
}
