import { beforeAll, describe, expect, it } from 'vitest';
import { getSettings, updateSettings } from '@/lib/settings/service';
import { updateSiteSettingsTool } from '@/lib/tools/settings';
import { presenters } from '@/tests/helpers/auth-matrix';
import { createTenant, type Tenant } from '@/tests/helpers/harness';
import { viaRest } from '@/tests/helpers/tools';

let mine: Tenant;
beforeAll(async () => {
  mine = await createTenant();
});
const settings = (body: Record<string, unknown>, key = mine.key) =>
  viaRest(updateSiteSettingsTool, presenters.bearer(key), { site_id: mine.siteId, ...body });

describe('updateSiteSettings', () => {
  it('starts empty, and update changes only the given fields by the merge rules', async () => {
    const t = await createTenant();
    const k = presenters.bearer(t.key);
    const call = (body: Record<string, unknown>) => viaRest(updateSiteSettingsTool, k, { site_id: t.siteId, ...body });
    expect((await call({ action: 'get' })).body).toEqual({ success: true, settings: {} });

    const first = await call({
      action: 'update',
      about: 'We sell analytics',
      industry: 'Software',
      branding: {
        brand_archetype: 'sage',
        color_palette: { primary: '#112233', secondary: '#abc' },
        voice_and_tone: { communication_style: 'direct', forbidden_words: ['cheap', 'free'] },
      },
      swot: { strengths: ['Fast'], threats: ['Incumbents'] },
      products: [{ name: 'Dashboards', price: 49, currency: 'USD' }],
      business_hours: { timezone: 'Europe/Madrid', days: { monday: { open: '09:00', close: '18:00' } } },
    });
    expect(first.status).toBe(200);
    expect(first.body.success).toBe(true);

    const second = await call({
      action: 'update',
      industry: 'SaaS', // scalar: replaced
      branding: { color_palette: { accent: '#ff0000' }, voice_and_tone: { forbidden_words: ['cheap'] } }, // objects merge, arrays replace
      swot: { threats: null }, // null removes a key
      about: null, // and a top-level field
      products: [{ name: 'Reports' }],
      business_hours: { days: { tuesday: { closed: true } } },
    });
    expect(second.body.settings).toEqual({
      industry: 'SaaS',
      branding: {
        brand_archetype: 'sage',
        color_palette: { primary: '#112233', secondary: '#abc', accent: '#ff0000' },
        voice_and_tone: { communication_style: 'direct', forbidden_words: ['cheap'] },
      },
      swot: { strengths: ['Fast'] },
      products: [{ name: 'Reports' }],
      business_hours: { timezone: 'Europe/Madrid', days: { monday: { open: '09:00', close: '18:00' }, tuesday: { closed: true } } },
    });
    expect((await call({ action: 'get' })).body.settings).toEqual(second.body.settings);
    expect(await getSettings(t.siteId)).toEqual(second.body.settings);
  });

  it('refuses unknown fields at any depth and writes nothing', async () => {
    await settings({ action: 'update', industry: 'Retail' });
    for (const bad of [
      { mood: 'x' },
      { branding: { logo: 'x' } },
      { swot: { strengths: ['ok'], risks: [] } },
      { products: [{ name: 'x', sku: 1 }] },
    ]) {
      const res = await settings({ action: 'update', industry: 'Changed', ...bad });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
    }
    expect((await getSettings(mine.siteId)).industry).toBe('Retail');
  });

  it('lets a read-only key get but not update (403)', async () => {
    expect((await settings({ action: 'get' }, mine.readKey)).status).toBe(200);
    const res = await settings({ action: 'update', industry: 'Nope' }, mine.readKey);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect((await getSettings(mine.siteId)).industry).not.toBe('Nope');
  });
});

describe('settings service (used by the console)', () => {
  it('keeps concurrent updates of different fields', async () => {
    const t = await createTenant();
    await Promise.all([
      updateSettings(t.siteId, { industry: 'A' }),
      updateSettings(t.siteId, { company_size: '11-50' }),
      updateSettings(t.siteId, { swot: { strengths: ['x'] } }),
      updateSettings(t.siteId, { goals: { primary: 'Grow' } }),
    ]);
    expect(await getSettings(t.siteId)).toEqual({ industry: 'A', company_size: '11-50', swot: { strengths: ['x'] }, goals: { primary: 'Grow' } });
  });

  it('rejects an invalid patch with INVALID_REQUEST naming the field', async () => {
    await expect(updateSettings(mine.siteId, { branding: { color_palette: { primary: 'red' } } })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      details: { issues: [expect.objectContaining({ path: 'settings.branding.color_palette.primary' })] },
    });
  });
});
