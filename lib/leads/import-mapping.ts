import { IMPORT_LEAD_FIELDS, type ImportLeadField } from './import-schema';

/**
 * The mapping the console proposes for a file's headers (and the import uses when none is given):
 * each header matched, after lower-casing and dropping everything but letters and digits, against
 * the names a spreadsheet commonly gives each lead field, then against the custom properties' keys
 * and labels. Each target is taken by the first header that matches it. Pure: runs in the browser.
 */
const SYNONYMS: Record<ImportLeadField, string[]> = {
  email: ['email', 'emailaddress', 'mail', 'email1', 'workemail', 'ecorreo', 'correo'],
  name: ['name', 'fullname', 'contact', 'contactname', 'leadname', 'nombre'],
  first_name: ['firstname', 'first', 'givenname', 'forename'],
  last_name: ['lastname', 'last', 'surname', 'familyname'],
  phone: ['phone', 'phonenumber', 'telephone', 'tel', 'mobile', 'mobilephone', 'cell', 'telefono'],
  company: ['company', 'companyname', 'organization', 'organisation', 'account', 'accountname', 'empresa'],
  position: ['position', 'title', 'jobtitle', 'role', 'jobrole'],
  notes: ['notes', 'note', 'comments', 'comment', 'description'],
  origin: ['origin', 'source', 'leadsource'],
  status: ['status', 'leadstatus', 'stage'],
  lead_score: ['leadscore', 'score'],
};

const normal = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

export type ImportMapping = Record<string, string | null>;

export function proposeMapping(headers: readonly string[], properties: readonly { key: string; label: string }[]): ImportMapping {
  const taken = new Set<string>();
  const mapping: ImportMapping = {};
  for (const header of headers) {
    const h = normal(header);
    let target: string | null = null;
    if (h) {
      target =
        IMPORT_LEAD_FIELDS.find((f) => !taken.has(f) && SYNONYMS[f].includes(h)) ??
        properties.find((p) => !taken.has(p.key) && (normal(p.key) === h || normal(p.label) === h))?.key ??
        null;
    }
    if (target) taken.add(target);
    if (!(header in mapping)) mapping[header] = target;
  }
  return mapping;
}
