import { ApiError } from '@/lib/core/errors';
import { MAX_TEXT_VALUE, type CustomProperties, type PropertyValue } from './custom-properties-schema';
import type { LeadProperty } from './property-schema';

/**
 * Values of custom properties checked against their definitions. `strict` (JSON bodies): a number
 * must be a JSON number. Otherwise (CSV cells, form fields, query filters: text only) a number may
 * come as its decimal text. A choice matches its option case-insensitively and is stored as the
 * option is written; a date is a calendar date `YYYY-MM-DD`.
 */
export type Checked = { ok: true; value: PropertyValue | null } | { ok: false; message: string };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DECIMAL = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

export function isCalendarDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

export function checkValue(def: Pick<LeadProperty, 'type' | 'options'>, raw: unknown, strict: boolean): Checked {
  if (raw === null || raw === undefined) return { ok: true, value: null };
  if (typeof raw === 'string' && raw.trim() === '') return { ok: true, value: null };
  switch (def.type) {
    case 'text': {
      if (typeof raw !== 'string') return { ok: false, message: 'must be text' };
      const value = raw.trim();
      return value.length > MAX_TEXT_VALUE ? { ok: false, message: `must be at most ${MAX_TEXT_VALUE} characters` } : { ok: true, value };
    }
    case 'number': {
      if (typeof raw === 'number') return Number.isFinite(raw) ? { ok: true, value: raw } : { ok: false, message: 'must be a finite number' };
      if (strict || typeof raw !== 'string') return { ok: false, message: 'must be a number' };
      const text = raw.trim();
      const n = Number(text);
      return DECIMAL.test(text) && Number.isFinite(n) ? { ok: true, value: n } : { ok: false, message: `must be a number (got "${clip(text)}")` };
    }
    case 'date': {
      if (typeof raw !== 'string') return { ok: false, message: 'must be a date YYYY-MM-DD' };
      const text = raw.trim();
      return isCalendarDate(text) ? { ok: true, value: text } : { ok: false, message: `must be a date YYYY-MM-DD (got "${clip(text)}")` };
    }
    case 'choice': {
      if (typeof raw !== 'string') return { ok: false, message: `must be one of: ${def.options.join(', ')}` };
      const text = raw.trim().toLowerCase();
      const option = def.options.find((o) => o.toLowerCase() === text);
      return option !== undefined
        ? { ok: true, value: option }
        : { ok: false, message: `must be one of: ${def.options.join(', ')} (got "${clip(raw.trim())}")` };
    }
  }
}

const clip = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

/** The changes a write asks for: values to set, keys to clear. */
export interface PropertyPatch {
  set: CustomProperties;
  clear: string[];
}

/**
 * Checks `input` (key → value) against the site's definitions: 400 INVALID_REQUEST naming
 * `custom_properties.<key>` for an unknown key or a value of the wrong type (every bad field at once).
 */
export function checkProperties(defs: readonly LeadProperty[], input: Record<string, unknown>, strict: boolean): PropertyPatch {
  const byKey = new Map(defs.map((d) => [d.key, d]));
  const patch: PropertyPatch = { set: {}, clear: [] };
  const issues: { path: string; message: string }[] = [];
  for (const [key, raw] of Object.entries(input)) {
    const def = byKey.get(key);
    if (!def) {
      issues.push({ path: `body.custom_properties.${key}`, message: `Unknown custom property "${key}" (define it first)` });
      continue;
    }
    const checked = checkValue(def, raw, strict);
    if (!checked.ok) issues.push({ path: `body.custom_properties.${key}`, message: `${def.label} ${checked.message}` });
    else if (checked.value === null) patch.clear.push(key);
    else patch.set[key] = checked.value;
  }
  if (issues.length > 0) {
    throw new ApiError('INVALID_REQUEST', `Invalid body: ${issues.map((i) => `${i.path.slice('body.'.length)}: ${i.message}`).join('; ')}`, {
      issues,
    });
  }
  return patch;
}
