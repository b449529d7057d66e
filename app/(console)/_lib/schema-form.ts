import { z } from 'zod';
import { labelOf } from './forms';

/**
 * A form generated from a body schema: each property of the schema's JSON Schema becomes a field
 * of the kind that can type it, and the submitted form becomes the body again. The schema still
 * decides what is valid; this only carries values across.
 */
export interface SchemaField {
  name: string;
  label: string;
  kind: 'text' | 'number' | 'boolean' | 'select' | 'checks' | 'lines' | 'json';
  required: boolean;
  description?: string;
  options?: string[];
  /** The schema's default, as the field shows it. */
  defaultValue?: string | string[] | boolean;
}

interface JsonProperty {
  type?: string;
  description?: string;
  enum?: string[];
  default?: unknown;
  items?: JsonProperty;
  format?: string;
  anyOf?: JsonProperty[];
}

function kindOf(p: JsonProperty): Pick<SchemaField, 'kind' | 'options'> {
  const t = p.type ?? p.anyOf?.find((a) => a.type !== 'null')?.type;
  if (p.enum) return { kind: 'select', options: p.enum };
  if (t === 'boolean') return { kind: 'boolean' };
  if (t === 'number' || t === 'integer') return { kind: 'number' };
  if (t === 'array') return p.items?.enum ? { kind: 'checks', options: p.items.enum } : { kind: 'lines' };
  if (t === 'object' || p.anyOf?.some((a) => a.type === 'object')) return { kind: 'json' };
  return { kind: 'text' };
}

function shown(v: unknown): SchemaField['defaultValue'] {
  if (typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return v.map(String);
  return undefined;
}

/** The fields of a body schema, in its order, without those the console fills itself (`site_id`). */
export function schemaFields(schema: z.ZodType, omit: string[] = ['site_id']): SchemaField[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, JsonProperty>; required?: string[] };
  return Object.entries(json.properties ?? {})
    .filter(([name]) => !omit.includes(name))
    .map(([name, p]) => ({
      name,
      label: labelOf(name),
      ...kindOf(p),
      required: (json.required ?? []).includes(name) && p.default === undefined,
      description: p.description,
      defaultValue: shown(p.default),
    }));
}

/** The body a generated form submitted: empty fields are left out (schema defaults apply), text typed into numbers and JSON is kept as typed for the schema to refuse. */
export function bodyFromForm(fields: SchemaField[], form: FormData): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = form.get(f.name);
    const value = typeof raw === 'string' ? raw.trim() : '';
    switch (f.kind) {
      case 'boolean':
        body[f.name] = form.get(f.name) === 'on';
        break;
      case 'checks': {
        const picked = form.getAll(f.name).filter((v): v is string => typeof v === 'string');
        if (picked.length) body[f.name] = picked;
        break;
      }
      case 'lines': {
        const lines = value
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean);
        if (lines.length) body[f.name] = lines;
        break;
      }
      case 'number':
        if (value !== '') body[f.name] = Number.isFinite(Number(value)) ? Number(value) : value;
        break;
      case 'json':
        if (value !== '') {
          try {
            body[f.name] = JSON.parse(value);
          } catch {
            body[f.name] = value;
          }
        }
        break;
      default:
        if (value !== '') body[f.name] = value;
    }
  }
  return body;
}
