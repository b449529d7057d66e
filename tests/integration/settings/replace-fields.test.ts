import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/core/errors';
import { replacementPatch } from '@/lib/settings/merge';
import { getSettings, updateSettings } from '@/lib/settings/service';
import { createTenant } from '@/tests/helpers/harness';

/** What the console's settings editor does on save: replace some fields whole, keep the others. */
const replaceFields = (next: Record<string, unknown>) => (stored: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(next).map((key) => [key, replacementPatch(stored[key], next[key])]));

describe('updateSettings with a patch computed from the stored settings', () => {
  it('replaces the given fields whole and keeps every other field', async () => {
    const { siteId } = await createTenant();
    await updateSettings(siteId, {
      industry: 'Retail',
      marketing_budget: { total: 100, currency: 'EUR', allocation: { ads: 60, seo: 40 } },
      swot: { strengths: ['Fast'] },
    });
    const saved = await updateSettings(siteId, replaceFields({ marketing_budget: { total: 200, allocation: { seo: 200 } }, industry: undefined }));
    expect(saved).toEqual({ marketing_budget: { total: 200, allocation: { seo: 200 } }, swot: { strengths: ['Fast'] } });
    expect(await getSettings(siteId)).toEqual(saved);
  });

  it('writes nothing when the result is invalid', async () => {
    const { siteId } = await createTenant();
    await updateSettings(siteId, { branding: { color_palette: { primary: '#000' } } });
    const attempt = updateSettings(siteId, replaceFields({ branding: { color_palette: { primary: '#12ab' } }, about: 'New' }));
    await expect(attempt).rejects.toBeInstanceOf(ApiError);
    await expect(attempt).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      details: { issues: [{ path: 'settings.branding.color_palette.primary', message: 'Must be a hex color such as #1a2b3c' }] },
    });
    expect(await getSettings(siteId)).toEqual({ branding: { color_palette: { primary: '#000' } } });
  });
});
