import type { z } from 'zod';
import { objectFields } from './describe';
import { jsonOf, type FormNode } from './nodes';

/**
 * A form for an API body, generated from its schema: the body's fields as the generator
 * (./describe.ts) sees them, each an input of the kind that can type it in one line or box
 * (nested parts are written as JSON), and the submitted form becomes the body again. The schema
 * still decides what is valid; this only carries values across.
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

function flatKind(node: FormNode): Pick<SchemaField, 'kind' | 'options'> {
  switch (node.kind) {
    case 'text':
    case 'number':
    case 'boolean':
      return { kind: node.kind };
    case 'choice':
      return { kind: 'select', options: node.options };
    case 'strings':
      return node.options ? { kind: 'checks', options: node.options } : { kind: 'lines' };
    default:
      return { kind: 'json' };
  }
}

function shown(v: unknown): SchemaField['defaultValue'] {
  if (typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return v.map(String);
  return undefined;
}

/** The fields of a body schema, in its order, without those the console fills itself (`site_id`). */
export function schemaFields(schema: z.ZodType, omit: readonly string[] = ['site_id']): SchemaField[] {
  return objectFields(schema, omit).map(({ key, node }) => ({
    name: key,
    label: node.label,
    ...flatKind(node),
    required: node.required,
    description: node.hint,
    defaultValue: shown(node.defaultValue),
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
        if (value !== '') body[f.name] = jsonOf(value);
        break;
      default:
        if (value !== '') body[f.name] = value;
    }
  }
  return body;
}
