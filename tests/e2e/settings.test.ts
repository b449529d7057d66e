import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createKeyInConsole, createSiteInConsole, launchBrowser, screenshot, signUp } from './browser';

const base = inject('e2eBaseUrl');

/** The settings as an agent reads them: the settings tool over HTTP with an API key. */
async function settingsViaApi(apiKey: string, siteId: string) {
  const res = await fetch(`${base}/api/agents/tools/updateSiteSettings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ site_id: siteId, action: 'get' }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { settings: Record<string, unknown> }).settings;
}

describe.skipIf(!base)('site settings editor, end to end', () => {
  let browser: Browser;
  let page: Page;
  let siteId = '';
  let apiKey = '';
  const settingsUrl = (group: string) => `${base}/console/sites/${siteId}/settings/${group}`;
  /** The whole page as it looks at rest: the viewport grows to the page, so the sticky save bar sits at its end. */
  const shot = async (name: string) => {
    const size = page.viewportSize()!;
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: size.width, height });
    await screenshot(page, name);
    await page.setViewportSize(size);
  };
  const save = async () => {
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signUp(page, base, `settings-${randomBytes(4).toString('hex')}@example.com`);
    siteId = await createSiteInConsole(page, 'Widget Works');
    apiKey = await createKeyInConsole(page, 'Agent', { write: false });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('opens the settings from the site tabs', async () => {
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/settings/company');
    expect(await page.getByRole('link', { name: 'Settings' }).getAttribute('aria-current')).toBe('page');
    await page.getByRole('heading', { name: 'Company', level: 2 }).waitFor({ state: 'visible', timeout: 10_000 });
    expect(await settingsViaApi(apiKey, siteId)).toEqual({});
  });

  it('saves the company fields', async () => {
    await page.getByLabel('About').fill('Widget Works makes hand-made widgets for small workshops.');
    await page.getByLabel('Industry').fill('Manufacturing');
    await save();
    await shot('settings-01-company');
  });

  it('shows a bad colour next to its field, keeps the input and writes nothing', async () => {
    await page.goto(settingsUrl('branding'));
    await page.getByLabel('Communication style').fill('Friendly and direct');
    await page.getByRole('button', { name: 'Add to Personality traits' }).click();
    // The new item takes the focus, so typing goes straight into it.
    await page.keyboard.type('warm');
    await page.getByRole('button', { name: 'Add to Personality traits' }).click();
    await page.getByLabel('Personality trait 2', { exact: true }).fill('precise');
    await page.getByRole('button', { name: 'Add to Forbidden words' }).click();
    await page.getByLabel('Forbidden word 1', { exact: true }).fill('cheap');
    await page.getByLabel('Brand archetype').selectOption('creator');
    await page.getByLabel('Primary', { exact: true }).fill('#12ab');
    await page.getByRole('button', { name: 'Save', exact: true }).click();

    const error = page.locator('#set-branding-color_palette-primary-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('Must be a hex color such as #1a2b3c');
    const primary = page.getByLabel('Primary', { exact: true });
    expect(await primary.getAttribute('aria-invalid')).toBe('true');
    expect(await primary.getAttribute('aria-describedby')).toContain('set-branding-color_palette-primary-error');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('set-branding-color_palette-primary');
    expect(await page.getByRole('alert').filter({ hasText: 'Nothing was saved' }).textContent()).toBe('Nothing was saved: a field needs attention.');
    expect(await page.getByLabel('Personality trait 2', { exact: true }).inputValue()).toBe('precise');
    expect(await page.getByLabel('Communication style').inputValue()).toBe('Friendly and direct');
    await shot('settings-02-branding-error');
    expect((await settingsViaApi(apiKey, siteId)).branding).toBeUndefined();

    await primary.fill('#1a2b3c');
    await save();
    expect(await page.locator('#set-branding-color_palette-primary-error').count()).toBe(0);
    await shot('settings-03-branding');
  });

  it('edits SWOT lists, adding and removing items', async () => {
    await page.goto(settingsUrl('swot'));
    for (const [i, text] of ['Fast delivery', 'Typo here', 'Hand-made quality'].entries()) {
      await page.getByRole('button', { name: 'Add to Strengths' }).click();
      await page.getByLabel(`Strength ${i + 1}`, { exact: true }).fill(text);
    }
    await page.getByRole('button', { name: 'Remove strength 2' }).click();
    expect(await page.getByLabel('Strength 2', { exact: true }).inputValue()).toBe('Hand-made quality');
    await page.getByRole('button', { name: 'Add to Threats' }).click();
    await page.getByLabel('Threat 1', { exact: true }).fill('Mass-produced imports');
    await save();
    await shot('settings-04-swot');
  });

  it('edits a customer-journey stage', async () => {
    await page.goto(settingsUrl('journey'));
    const awareness = page.getByRole('group', { name: 'Awareness', exact: true });
    await awareness.getByRole('button', { name: 'Add to Metrics' }).click();
    await awareness.getByLabel('Metric 1', { exact: true }).fill('Newsletter sign-ups');
    await awareness.getByRole('button', { name: 'Add to Tactics' }).click();
    await awareness.getByLabel('Tactic 1', { exact: true }).fill('Workshop demos');
    await save();
  });

  it('adds a product with a price', async () => {
    await page.goto(settingsUrl('offerings'));
    await page.getByRole('button', { name: 'Add to Products' }).click();
    const product = page.getByRole('group', { name: 'Product 1' });
    await product.getByLabel('Name (required)').fill('Classic widget');
    await product.getByLabel('Price').fill('19.5');
    await product.getByLabel('Currency').fill('EUR');
    await product.getByLabel('URL').fill('https://widgets.example.com/classic');
    await save();
    await shot('settings-05-products');
  });

  it('shows the saved values after a reload', async () => {
    await page.goto(settingsUrl('company'));
    expect(await page.getByLabel('Industry').inputValue()).toBe('Manufacturing');
    await page.goto(settingsUrl('branding'));
    expect(await page.getByLabel('Personality trait 1', { exact: true }).inputValue()).toBe('warm');
    expect(await page.getByLabel('Primary', { exact: true }).inputValue()).toBe('#1a2b3c');
    expect(await page.getByLabel('Brand archetype').inputValue()).toBe('creator');
    await page.goto(settingsUrl('swot'));
    expect(await page.getByLabel('Strength 2', { exact: true }).inputValue()).toBe('Hand-made quality');
    await page.goto(settingsUrl('offerings'));
    expect(await page.getByRole('group', { name: 'Product 1' }).getByLabel('Price').inputValue()).toBe('19.5');
  });

  it('reads the same settings through the API', async () => {
    expect(await settingsViaApi(apiKey, siteId)).toEqual({
      about: 'Widget Works makes hand-made widgets for small workshops.',
      industry: 'Manufacturing',
      branding: {
        brand_archetype: 'creator',
        color_palette: { primary: '#1a2b3c' },
        voice_and_tone: { communication_style: 'Friendly and direct', personality_traits: ['warm', 'precise'], forbidden_words: ['cheap'] },
      },
      swot: { strengths: ['Fast delivery', 'Hand-made quality'], threats: ['Mass-produced imports'] },
      customer_journey: { awareness: { metrics: ['Newsletter sign-ups'], tactics: ['Workshop demos'] } },
      products: [{ name: 'Classic widget', price: 19.5, currency: 'EUR', url: 'https://widgets.example.com/classic' }],
    });
  });

  it('removes a cleared field and keeps the other groups', async () => {
    await page.goto(settingsUrl('company'));
    await page.getByLabel('Industry').fill('');
    await save();
    const settings = await settingsViaApi(apiKey, siteId);
    expect(settings.industry).toBeUndefined();
    expect(settings.swot).toEqual({ strengths: ['Fast delivery', 'Hand-made quality'], threats: ['Mass-produced imports'] });
  });

  it('edits contact channels and a budget allocation', async () => {
    await page.goto(settingsUrl('marketing'));
    const email = page.getByRole('group', { name: 'Email', exact: true });
    await email.getByLabel('Enabled').check();
    await email.getByLabel('Address').fill('hello@widgets.example.com');
    const budget = page.getByRole('group', { name: 'Marketing budget' });
    await budget.getByLabel('Total').fill('1200');
    await budget.getByLabel('Period').selectOption('monthly');
    await budget.getByRole('button', { name: 'Add to Allocation' }).click();
    await budget.getByRole('group', { name: 'Allocation 1' }).getByLabel('Name (required)').fill('workshops');
    await budget.getByRole('group', { name: 'Allocation 1' }).getByLabel('Value').fill('700');
    await save();
    await shot('settings-07-marketing');
    const settings = await settingsViaApi(apiKey, siteId);
    expect(settings.channels).toEqual({ email: { enabled: true, address: 'hello@widgets.example.com' } });
    expect(settings.marketing_budget).toEqual({ total: 1200, period: 'monthly', allocation: { workshops: 700 } });
  });

  it('renders every settings page', async () => {
    for (const group of ['journey', 'team', 'market', 'places', 'goals']) {
      const res = await page.goto(settingsUrl(group));
      expect(res?.status()).toBe(200);
      await shot(`settings-page-${group}`);
    }
    expect((await page.goto(settingsUrl('nope')))?.status()).toBe(404);
  });

  it('fits a phone screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(settingsUrl('branding'));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    await shot('settings-06-branding-phone');
  });
});
