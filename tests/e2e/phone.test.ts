import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SITE_SECTIONS } from '@/components/site-sections';
import { launchBrowser, screenshot } from './browser';

const base = inject('e2eBaseUrl');
const WIDTH = 390;

/** Pages outside a site: public ones, then the signed-in account's. */
const PUBLIC_PAGES = ['/signin', '/signup', '/docs'];
const ACCOUNT_PAGES = ['/console', '/console/no-such-page'];
/** Links followed from a site section to the pages below it (settings groups, a run, a key's usage), per section. */
const MAX_SUBPAGES = 12;

async function api(path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const body = await res.json();
  if (res.status >= 300) throw new Error(`${init.method ?? 'GET'} ${path} → ${res.status} ${JSON.stringify(body)}`);
  return body;
}

interface Problem {
  what: string;
  element: string;
}

/**
 * What a phone user would trip over on the current page: the page or a box in it scrolling
 * sideways; an action (link, button, field) that is drawn but off the screen's width, too small to
 * hit, or covered by something else (a sticky bar) when scrolled to; a time or a badge broken over
 * two lines. Elements that are not drawn at all (a closed dialog, a visually hidden label, the skip
 * link until it has the focus) are not actions on screen and are left out.
 */
function phoneProblems(): Problem[] {
  const problems: Problem[] = [];
  const describe = (el: Element) =>
    `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('name') ? `[name=${el.getAttribute('name')}]` : ''} “${(el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 40)}”`;
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth)
    problems.push({ what: `page scrolls sideways (${root.scrollWidth}px > ${root.clientWidth}px)`, element: 'html' });
  for (const el of document.querySelectorAll<HTMLElement>('body *')) {
    if (!el.checkVisibility({ checkVisibilityCSS: true })) continue;
    const style = getComputedStyle(el);
    // The API reference's code samples and tables scroll inside the renderer (Scalar), as code does.
    const rendered = el.closest('[data-testid="api-reference"]') !== null;
    if (
      !rendered &&
      (style.overflowX === 'auto' || style.overflowX === 'scroll') &&
      el.scrollWidth > el.clientWidth + 1 &&
      el.tagName !== 'TEXTAREA'
    ) {
      problems.push({ what: `box scrolls sideways (${el.scrollWidth}px > ${el.clientWidth}px)`, element: describe(el) });
    }
  }
  const hidden = (el: HTMLElement) =>
    !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) ||
    el.closest('.visually-hidden, .skip-link, dialog:not([open]), details:not([open]) > :not(summary)') !== null ||
    (el instanceof HTMLInputElement && el.type === 'hidden');
  const actions = document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, summary, [role="button"]');
  for (const el of actions) {
    if (hidden(el)) continue;
    el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (box.left < -1 || box.right > root.clientWidth + 1) {
      problems.push({ what: `outside the screen's width (${Math.round(box.left)}–${Math.round(box.right)}px)`, element: describe(el) });
      continue;
    }
    // The API reference's own controls are the renderer's (Scalar) design; its page around them is ours.
    const inReference = el.closest('[data-testid="api-reference"]') !== null;
    if (!inReference && (box.height < 16 || box.width < 16))
      problems.push({ what: `too small to tap (${Math.round(box.width)}×${Math.round(box.height)}px)`, element: describe(el) });
    const x = Math.min(Math.max(box.left + box.width / 2, 0), root.clientWidth - 1);
    const y = Math.min(Math.max(box.top + Math.min(box.height, 40) / 2, 0), window.innerHeight - 1);
    const hit = document.elementFromPoint(x, y);
    const label = el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`) : null;
    if (
      hit &&
      hit !== el &&
      !el.contains(hit) &&
      !hit.contains(el) &&
      !(label && (label === hit || label.contains(hit))) &&
      hit.closest('label') !== el.closest('label')
    ) {
      problems.push({ what: `covered by ${hit.tagName.toLowerCase()}.${hit.className}`, element: describe(el) });
    }
  }
  for (const el of document.querySelectorAll<HTMLElement>('main time, main .badge')) {
    if (!hidden(el) && el.getClientRects().length > 1) problems.push({ what: 'broken over two lines', element: describe(el) });
  }
  return problems;
}

describe.skipIf(!base)(`every console page at ${WIDTH} px`, () => {
  let browser: Browser;
  let page: Page;
  const email = `phone-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'a long enough password';
  const siteName = 'Phone Shop with a rather long name';
  let siteId = '';
  let apiKey = '';
  const visited: string[] = [];

  /** Opens `path`, checks it and keeps a screenshot; returns the site links found on it. */
  async function check(path: string): Promise<void> {
    const res = await page.goto(`${base}${path}`);
    expect(res?.status(), path).toBeLessThan(path.includes('no-such') ? 500 : 400);
    await page.waitForLoadState('networkidle');
    if (path === '/docs') await page.getByRole('heading', { name: 'Auth' }).first().waitFor();
    const problems = await page.evaluate(phoneProblems);
    // The whole page at rest: the viewport grows to the page, so a sticky bar sits at its end.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: WIDTH, height });
    await screenshot(
      page,
      `phone${path
        .replace(siteId, 'site')
        .replace(/[^a-z0-9]+/gi, '-')
        .replace(/-$/, '')}`,
    );
    await page.setViewportSize({ width: WIDTH, height: 844 });
    expect({ path, problems }).toEqual({ path, problems: [] });
    visited.push(path);
  }

  beforeAll(async () => {
    // A site with something on every page: keys (one revoked, one used), an extra origin, a workflow run.
    await api('/api/auth/signup', { method: 'POST', body: { email, password, name: 'Phone user with a long display name' } });
    const { data: session } = await api('/api/auth/token', { method: 'POST', body: { email, password } });
    const auth = { authorization: `Bearer ${session.token}` };
    ({
      data: { id: siteId },
    } = await api('/api/visitors/sites', { method: 'POST', headers: auth, body: { name: siteName, domain: 'phone-shop.example.com' } }));
    await api(`/api/sites/${siteId}/origins`, { method: 'POST', headers: auth, body: { origin: 'https://checkout.phone-shop.example.com:8443' } });
    ({
      data: { apiKey },
    } = await api('/api/keys', {
      method: 'POST',
      headers: auth,
      body: { name: 'Production checkout server', scopes: ['read', 'write'], site_id: siteId },
    }));
    const { data: spare } = await api('/api/keys', { method: 'POST', headers: auth, body: { name: 'Old key', scopes: ['read'], site_id: siteId } });
    await api(`/api/keys?id=${spare.id}&site_id=${siteId}`, { method: 'DELETE', headers: auth });
    await api('/sites', { headers: { 'X-API-Key': apiKey } });
    await api('/api/workflow/dailyStandUp', { method: 'POST', headers: { 'X-API-Key': apiKey }, body: { site_id: siteId } });

    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: WIDTH, height: 844 }, isMobile: true, hasTouch: true })).newPage();
  });

  afterAll(async () => {
    await browser?.close();
  });

  // The reference at /docs renders the whole OpenAPI document in the browser: over a minute on a loaded machine.
  it('public pages', { timeout: 180_000 }, async () => {
    for (const path of PUBLIC_PAGES) await check(path);
  });

  it('account pages, after signing in on the phone', async () => {
    await page.goto(`${base}/signin`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/console');
    for (const path of ACCOUNT_PAGES) await check(path);
    expect(await page.getByRole('heading', { name: 'Not found' }).isVisible()).toBe(true);
    // The console's own card, inside its header, not the framework's bare page.
    expect(await page.getByRole('link', { name: 'Back to your sites' }).isVisible()).toBe(true);
  });

  it('every site section (from SITE_SECTIONS) and the pages below it, with the current one in view', { timeout: 600_000 }, async () => {
    const site = `/console/sites/${siteId}`;
    for (const section of SITE_SECTIONS) {
      await check(site + section.path);
      // The menu is behind its button on a phone: the button names the section, and opens on it.
      const menu = page.locator('details.site-menu > summary');
      expect(await menu.textContent()).toContain(section.label);
      await menu.click();
      const current = page.locator('nav[aria-label="Site sections"] a[aria-current="page"]');
      expect(await current.textContent()).toBe(section.label);
      const box = (await current.boundingBox())!;
      expect(box.x >= 0 && box.x + box.width <= WIDTH, `section ${section.label} in view`).toBe(true);

      const prefixes = [site + section.path + '/'];
      const links = await page.locator('main a[href]').evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
      const below = [...new Set(links.filter((p) => prefixes.some((prefix) => p.startsWith(prefix)) && p !== site + section.path))].slice(
        0,
        MAX_SUBPAGES,
      );
      for (const path of below) if (!visited.includes(path)) await check(path);
    }
    // Settings groups and a key's usage page were reached through their links.
    expect(visited.filter((p) => p.includes('/settings/')).length).toBeGreaterThan(3);
    expect(visited.some((p) => p.includes('/keys/'))).toBe(true);
    expect(visited.some((p) => /\/workflows\/.+/.test(p))).toBe(true);
    expect(visited.some((p) => p.endsWith(`${site}/no-such-section`))).toBe(false);
    await check(`${site}/no-such-section`);
    expect(await page.getByRole('heading', { name: 'Not found' }).isVisible()).toBe(true);
  });

  it('renames the site and deletes it from the phone; its key stops working at once', async () => {
    await page.goto(`${base}/console/sites/${siteId}/general`);
    await page.getByLabel('Name', { exact: true }).fill('Phone Shop');
    await page.getByLabel('Domain', { exact: true }).fill('not a domain');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.locator('#field-domain-error').waitFor();
    expect(await page.getByLabel('Domain', { exact: true }).inputValue()).toBe('not a domain');
    await page.getByLabel('Domain', { exact: true }).fill('shop.example.org');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Phone Shop');

    const confirm = page.getByLabel(/Type the site's name/);
    await confirm.fill('phone shop');
    await page.getByRole('button', { name: 'Delete this site' }).click();
    await page.locator('#field-confirm-error').waitFor();
    expect(await confirm.inputValue()).toBe('phone shop');
    expect((await fetch(`${base}/sites`, { headers: { 'X-API-Key': apiKey } })).status).toBe(200);
    await screenshot(page, 'phone-site-delete-refused');

    await confirm.fill('Phone Shop');
    await page.getByRole('button', { name: 'Delete this site' }).click();
    await page.waitForURL('**/console?deleted=*');
    await page.getByRole('status').filter({ hasText: 'Site “Phone Shop” and all its data were deleted.' }).waitFor();
    expect(await page.getByText('No sites yet').isVisible()).toBe(true);
    await screenshot(page, 'phone-site-deleted');
    expect((await fetch(`${base}/sites`, { headers: { 'X-API-Key': apiKey } })).status).toBe(401);
    expect((await page.goto(`${base}/console/sites/${siteId}`))?.status()).toBe(404);
  });
});
