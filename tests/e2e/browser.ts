import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
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

/** A full-page screenshot kept as a test artifact: test-results/e2e/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** A new account signed up through the console's form, in a fresh 1280 px page that stays signed in. */
export async function signedUpPage(browser: Browser, base: string, email: string, password: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(`${base}/signup`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/console');
  return page;
}
