import type { LeadSnapshot, SegmentPlan } from '../activities';
import { emailDomain } from './lead-checks';

export type ClusterAttribute = 'company' | 'origin' | 'position' | 'email_domain' | 'status';

const LABELS: Record<ClusterAttribute, string> = {
  company: 'Company',
  origin: 'Origin',
  position: 'Position',
  email_domain: 'Email domain',
  status: 'Status',
};

function valueOf(lead: LeadSnapshot, attribute: ClusterAttribute): string | null {
  const raw = attribute === 'email_domain' ? emailDomain(lead.email) : lead[attribute];
  const value = raw?.trim().toLowerCase().replace(/\s+/g, ' ');
  return value ? value : null;
}

/**
 * Groups leads that share the values of every attribute (case- and space-insensitive); each group
 * of at least `minSize` leads becomes a segment plan. Leads missing a value join no group. Pure and
 * ordered (largest group first, then by key), so a rerun plans the same segments.
 */
export function clusterLeads(leads: LeadSnapshot[], attributes: ClusterAttribute[], minSize: number): SegmentPlan[] {
  const groups = new Map<string, { values: Record<string, string>; ids: string[] }>();
  for (const lead of leads) {
    const values: Record<string, string> = {};
    let complete = true;
    for (const attribute of attributes) {
      const value = valueOf(lead, attribute);
      if (value === null) complete = false;
      else values[attribute] = value;
    }
    if (!complete) continue;
    const key = `auto:${attributes.map((a) => `${a}=${values[a]}`).join('|')}`;
    const group = groups.get(key) ?? { values, ids: [] };
    group.ids.push(lead.id);
    groups.set(key, group);
  }
  return [...groups.entries()]
    .filter(([, g]) => g.ids.length >= minSize)
    .sort(([ka, a], [kb, b]) => b.ids.length - a.ids.length || ka.localeCompare(kb))
    .map(([key, g]) => ({
      key,
      name: attributes.map((a) => `${LABELS[a]}: ${g.values[a]}`).join(' · '),
      description: `${g.ids.length} leads sharing ${attributes.map((a) => LABELS[a].toLowerCase()).join(', ')}`,
      attributes: g.values,
      lead_ids: [...g.ids].sort(),
    }));
}
