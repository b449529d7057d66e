/** Words a field name spells in lower case that a person reads otherwise. */
const WORDS: Record<string, string> = {
  id: 'ID',
  ids: 'IDs',
  url: 'URL',
  urls: 'URLs',
  icp: 'ICP',
  kpis: 'KPIs',
  swot: 'SWOT',
  dont: 'don’t',
  sms: 'SMS',
  whatsapp: 'WhatsApp',
};

/** A field's name as a person reads it: `first_name` → "First name", `leadIds` → "Lead IDs", `logo_url` → "Logo URL". */
export function labelOf(name: string): string {
  const text = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase()
    .split(' ')
    .map((word) => WORDS[word] ?? word)
    .join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "Products" → "Product", "Opportunities" → "Opportunity", "Weaknesses" → "Weakness": one item of a list. */
export function singular(label: string): string {
  if (/ies$/.test(label)) return `${label.slice(0, -3)}y`;
  if (/sses$/.test(label)) return label.slice(0, -2);
  return /ss$/.test(label) || !/s$/.test(label) ? label : label.slice(0, -1);
}
