import { describe, expect, it } from 'vitest';
import { mergeSettings } from '@/lib/settings/merge';
import { SettingsPatchSchema, SiteSettingsSchema } from '@/lib/settings/schema';

describe('mergeSettings', () => {
  const stored = {
    industry: 'Retail',
    branding: { brand_archetype: 'sage', color_palette: { primary: '#000', text: '#111' } },
    products: [{ name: 'A' }, { name: 'B' }],
  };

  it('keeps absent fields, merges objects recursively, replaces arrays and scalars, removes on null', () => {
    expect(
      mergeSettings(stored, { industry: 'SaaS', branding: { color_palette: { text: null, accent: '#f00' } }, products: [{ name: 'C' }] }),
    ).toEqual({
      industry: 'SaaS',
      branding: { brand_archetype: 'sage', color_palette: { primary: '#000', accent: '#f00' } },
      products: [{ name: 'C' }],
    });
  });

  it('does not modify its arguments', () => {
    const copy = structuredClone(stored);
    const patch = { branding: { color_palette: { primary: '#fff' } } };
    mergeSettings(stored, patch);
    expect(stored).toEqual(copy);
    expect(patch).toEqual({ branding: { color_palette: { primary: '#fff' } } });
  });

  it('replaces a stored scalar with an object and vice versa', () => {
    expect(mergeSettings({ goals: 'x' }, { goals: { primary: 'Grow' } })).toEqual({ goals: { primary: 'Grow' } });
    expect(mergeSettings({ about: { a: 1 } }, { about: 'text' })).toEqual({ about: 'text' });
  });
});

describe('settings schemas', () => {
  it('accepts null at any depth of an object in a patch, but not in stored settings', () => {
    expect(SettingsPatchSchema.safeParse({ branding: { voice_and_tone: { forbidden_words: null } }, swot: null }).success).toBe(true);
    expect(SiteSettingsSchema.safeParse({ swot: null }).success).toBe(false);
  });

  it('is strict at every depth', () => {
    expect(SettingsPatchSchema.safeParse({ customer_journey: { awareness: { metrics: ['x'], budget: 1 } } }).success).toBe(false);
    expect(SettingsPatchSchema.safeParse({ business_hours: { days: { funday: { closed: true } } } }).success).toBe(false);
  });
});
