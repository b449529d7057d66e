import { describe, expect, it } from 'vitest';
import { SETTINGS_GROUPS, groupFields } from '@/app/(console)/_lib/settings-model';
import { labelOf, singular } from '@/components/schema-form/labels';
import { formPathOf, fromFormValue, toFormValue } from '@/components/schema-form/nodes';
import { mergeSettings, replacementPatch } from '@/lib/settings/merge';
import { SETTINGS_FIELDS, SiteSettingsSchema } from '@/lib/settings/schema';

const sample = {
  about: 'We sell widgets',
  branding: {
    brand_archetype: 'sage',
    color_palette: { primary: '#1a2b3c', additional: ['#fff'] },
    voice_and_tone: { personality_traits: ['warm', 'direct'] },
    brand_assets: { other: [{ name: 'Deck', url: 'https://example.com/deck.pdf' }] },
  },
  swot: { strengths: ['Fast'] },
  products: [{ name: 'Widget', price: 19.5, currency: 'EUR' }],
  marketing_channels: [{ name: 'Ads', active: true }, { name: 'Print' }],
  marketing_budget: { total: 1000, allocation: { ads: 600, seo: 400 } },
  channels: { email: { enabled: true, address: 'hi@example.com' } },
  business_hours: { days: { monday: { open: '09:00', close: '17:00' }, sunday: { closed: true } } },
  office_locations: [{ city: 'Madrid', is_headquarters: true }],
  team_roles: [{ title: 'Seller', count: 3 }],
};

/** The settings value a whole editor (every group) produces from the form values of `settings`. */
function roundTrip(settings: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const group of SETTINGS_GROUPS) {
    for (const { key, node } of groupFields(group)) {
      const value = fromFormValue(node, toFormValue(node, settings[key]), key, key, new Map());
      if (value !== undefined) out[key] = value;
    }
  }
  return out;
}

describe('settings editor model', () => {
  it('puts every settings field in exactly one group', () => {
    const fields = SETTINGS_GROUPS.flatMap((g) => g.fields as readonly string[]);
    expect([...fields].sort()).toEqual([...SETTINGS_FIELDS].sort());
  });

  it('shows stored settings and saves them back unchanged', () => {
    const settings = SiteSettingsSchema.parse(sample);
    expect(roundTrip(settings)).toEqual(settings);
  });

  it('edits yes/no fields with a checkbox: an optional one left unticked is not set', () => {
    const [hours] = groupFields(SETTINGS_GROUPS.find((g) => g.fields.includes('business_hours' as never))!).filter((f) => f.key === 'business_hours');
    const day = hours.node.kind === 'object' ? hours.node.fields.find((f) => f.key === 'days')!.node : undefined;
    const monday = day?.kind === 'map' ? day.value : undefined;
    expect(monday?.kind === 'object' && monday.fields.map((f) => [f.key, f.node.kind === 'text' ? f.node.input : f.node.kind])).toEqual([
      ['closed', 'boolean'],
      ['open', 'time'],
      ['close', 'time'],
    ]);
    const stored = SiteSettingsSchema.parse({ business_hours: { days: { monday: { closed: false, open: '09:00' }, sunday: { closed: true } } } });
    expect(roundTrip(stored)).toEqual({ business_hours: { days: { monday: { open: '09:00' }, sunday: { closed: true } } } });
  });

  it('derives labels, hints, limits and choices from the schema', () => {
    const [branding] = groupFields(SETTINGS_GROUPS.find((g) => g.id === 'branding')!);
    expect(branding.node.kind).toBe('object');
    const fields = branding.node.kind === 'object' ? branding.node.fields : [];
    const archetype = fields.find((f) => f.key === 'brand_archetype')!.node;
    expect(archetype).toMatchObject({ kind: 'choice', label: 'Brand archetype', required: false });
    expect(archetype.kind === 'choice' && archetype.options).toContain('sage');
    const [products] = groupFields(SETTINGS_GROUPS.find((g) => g.id === 'offerings')!);
    expect(products.node).toMatchObject({ kind: 'objects', label: 'Products', itemLabel: 'Product', maxItems: 500 });
    const item = products.node.kind === 'objects' ? products.node.item.fields : [];
    expect(item.find((f) => f.key === 'name')!.node).toMatchObject({ kind: 'text', required: true, maxLength: 200 });
    expect(item.find((f) => f.key === 'url')!.node).toMatchObject({ kind: 'text', input: 'url', required: false });
  });

  it('names fields and list items in words', () => {
    expect(['Products', 'Opportunities', 'Weaknesses', 'KPIs', 'Social media', 'Press releases'].map(singular)).toEqual([
      'Product',
      'Opportunity',
      'Weakness',
      'KPI',
      'Social media',
      'Press release',
    ]);
    expect(['logo_dark_url', 'dont_list', 'whatsapp'].map(labelOf)).toEqual(['Logo dark URL', 'Don’t list', 'WhatsApp']);
  });

  it('drops empty list items and keeps each error on the field it came from', () => {
    const [swot] = groupFields(SETTINGS_GROUPS.find((g) => g.id === 'swot')!);
    const paths = new Map<string, string>();
    const value = fromFormValue(
      swot.node,
      { strengths: ['', 'Fast', '  ', 'Cheap'], weaknesses: [], opportunities: [], threats: [] },
      'swot',
      'swot',
      paths,
    );
    expect(value).toEqual({ strengths: ['Fast', 'Cheap'] });
    expect(formPathOf('swot.strengths.1', paths)).toBe('swot.strengths.3');
    const [products] = groupFields(SETTINGS_GROUPS.find((g) => g.id === 'offerings')!);
    const blank = toFormValue(products.node.kind === 'objects' ? products.node.item : products.node, undefined) as Record<string, string>;
    const items = [blank, { ...blank, price: '3' }];
    const out = fromFormValue(products.node, items, 'products', 'products', paths);
    expect(out).toEqual([{ price: 3 }]);
    expect(formPathOf('products.0.name', paths)).toBe('products.1.name');
  });

  it('replaces a field whole under the merge rules', () => {
    const stored = { marketing_budget: { total: 5, allocation: { ads: 1, seo: 2 } }, industry: 'Retail' };
    const next = { allocation: { seo: 3 } };
    const patch = { marketing_budget: replacementPatch(stored.marketing_budget, next) };
    expect(patch).toEqual({ marketing_budget: { total: null, allocation: { ads: null, seo: 3 } } });
    expect(mergeSettings(stored, patch)).toEqual({ marketing_budget: next, industry: 'Retail' });
    expect(replacementPatch({ a: 1 }, undefined)).toBeNull();
    expect(replacementPatch(['a'], ['b'])).toEqual(['b']);
  });
});
