import { z } from 'zod';
import { timeOfDaySchema } from '@/lib/settings/schema';
import { labelOf, singular } from './labels';
import type { FormNode, NodeField } from './nodes';

/**
 * The console's one schema→form generator: a zod schema's fields as form nodes (./nodes.ts).
 * Labels come from the field names, hints from the schema's descriptions, limits, choices and
 * defaults from its checks; the schema stays the judge of what is valid.
 */

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  defaultValue?: unknown;
  options?: z.ZodType[];
  element?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  format?: string;
}
const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;

/** The type under the wrappers that do not change what a form types (optional, default, pipe, …), its description and default. */
function unwrap(schema: z.ZodType): { inner: z.ZodType; description?: string; defaultValue?: unknown } {
  let inner = schema;
  let description = schema.description;
  let defaultValue: unknown;
  for (;;) {
    const def = defOf(inner);
    if (def.type === 'default' || def.type === 'prefault') defaultValue ??= def.defaultValue;
    if (def.innerType) inner = def.innerType;
    else if (def.type === 'pipe') inner = defOf(def.in!).type === 'transform' ? def.out! : def.in!;
    else return { inner, description, defaultValue };
    description ??= inner.description;
  }
}

/** Whether an object's field must be given: not optional and without a default. */
const isRequired = (field: z.ZodType) => field._zod.optin === undefined;

/** A description that only repeats the label ("Primary color" for Primary) is not shown as a hint. */
const restates = (description: string, label: string) =>
  description.toLowerCase() === label.toLowerCase() ||
  (description.toLowerCase().startsWith(label.toLowerCase()) && description.split(' ').length <= label.split(' ').length + 1);

/** Labels a field name alone would make misleading. */
const LABELS: Record<string, string> = { team_members: 'People on the team' };

/** The string formats with an input type of their own. */
const INPUTS: Record<string, 'url' | 'email' | 'date'> = { url: 'url', email: 'email', date: 'date' };

/** The fields of an object schema, in its order, without those named in `omit`. */
export function objectFields(schema: z.ZodType, omit: readonly string[] = []): NodeField[] {
  const { inner } = unwrap(schema);
  if (!(inner instanceof z.ZodObject)) return [];
  return Object.entries(inner.shape as Record<string, z.ZodType>)
    .filter(([key]) => !omit.includes(key))
    .map(([key, field]) => ({ key, node: describe(key, field, isRequired(field)) }));
}

/** One field as a form node. */
export function describe(key: string, schema: z.ZodType, required = false): FormNode {
  const { inner, description, defaultValue } = unwrap(schema);
  const label = LABELS[key] ?? labelOf(key);
  const hint = description && !restates(description, label) ? description : undefined;
  const common = { label, required, ...(hint ? { hint } : {}), ...(defaultValue !== undefined ? { defaultValue } : {}) };
  const def = defOf(inner);
  switch (def.type) {
    case 'string': {
      const maxLength = (inner as z.ZodString).maxLength ?? undefined;
      const input = inner === timeOfDaySchema ? 'time' : (def.format && INPUTS[def.format]) || 'text';
      // A time input shows its own format: "HH:MM (24-hour)" under each one would only repeat it.
      const { hint: _hint, ...plain } = common;
      return {
        ...(input === 'time' ? plain : common),
        kind: 'text',
        input,
        multiline: input === 'text' && (maxLength ?? 0) >= 1_000,
        ...(maxLength ? { maxLength } : {}),
      };
    }
    case 'number': {
      const { minValue: min, isInt } = inner as z.ZodNumber;
      return { ...common, kind: 'number', integer: isInt, ...(min !== null && Number.isFinite(min) ? { min } : {}) };
    }
    case 'boolean':
      return { ...common, kind: 'boolean' };
    case 'enum':
      return { ...common, kind: 'choice', options: (inner as z.ZodEnum).options.map(String) };
    case 'literal':
      return { ...common, kind: 'text', input: 'text', multiline: false };
    case 'object':
      return { ...common, kind: 'object', fields: objectFields(inner) };
    case 'array': {
      const element = describe(key, def.element!, true);
      const maxItems = maxLengthOf(inner as z.ZodArray);
      const limits = maxItems !== undefined ? { maxItems } : {};
      const itemLabel = singular(label);
      if (element.kind === 'object') return { ...common, kind: 'objects', itemLabel, item: element, ...limits };
      return {
        ...common,
        kind: 'strings',
        itemLabel,
        ...limits,
        ...(element.kind === 'choice' ? { options: element.options } : {}),
        ...(element.kind === 'text' && element.maxLength ? { maxLength: element.maxLength } : {}),
      };
    }
    case 'record': {
      const value = describe('value', def.valueType!, true);
      const keys = unwrap(def.keyType!).inner;
      if (keys instanceof z.ZodEnum) {
        return { ...common, kind: 'map', keys: keys.options.map((k) => ({ key: String(k), label: labelOf(String(k)) })), value };
      }
      return { ...common, kind: 'pairs', itemLabel: singular(label), value };
    }
    case 'union': {
      // A choice of shapes: the first that is not null types it, unless one of them is an object.
      const options = def.options!.map((o) => unwrap(o).inner).filter((o) => defOf(o).type !== 'null');
      if (options.length === 0 || options.some((o) => defOf(o).type === 'object')) return { ...common, kind: 'json' };
      return { ...describe(key, options[0], required), ...common };
    }
    default:
      return { ...common, kind: 'json' };
  }
}

/** The `.max(n)` of an array. */
function maxLengthOf(schema: z.ZodArray): number | undefined {
  const checks = (schema._zod.def.checks ?? []) as { _zod: { def: { check: string; maximum?: number } } }[];
  return checks.find((c) => c._zod.def.check === 'max_length')?._zod.def.maximum;
}

/** Every node of a tree, the node itself first. */
export function nodesOf(node: FormNode): FormNode[] {
  const children =
    node.kind === 'object'
      ? node.fields.map((f) => f.node)
      : node.kind === 'objects'
        ? [node.item]
        : node.kind === 'map' || node.kind === 'pairs'
          ? [node.value]
          : [];
  return [node, ...children.flatMap(nodesOf)];
}
