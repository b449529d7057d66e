/**
 * The form model of a zod schema, shared by the server (pages and actions) and the browser (the
 * forms). A `FormNode` describes one field; `./describe.ts` derives the nodes from the schema, so
 * this file holds no rule of its own. The settings editor renders the nodes as they are (nested,
 * `./node-input.tsx`); a form for an API body renders them flat (`./fields.ts`). A form value is
 * the field as the nested form holds it: text as typed, lists as arrays, objects as objects.
 *
 * No zod here: this module is bundled into the browser.
 */

interface Base {
  label: string;
  hint?: string;
  /** Required by the schema when its parent object is present. */
  required: boolean;
  /** The schema's default, when it has one. */
  defaultValue?: unknown;
}
export type FormNode =
  | (Base & { kind: 'text'; input: 'text' | 'url' | 'email' | 'date' | 'time'; multiline: boolean; maxLength?: number })
  | (Base & { kind: 'number'; integer: boolean; min?: number })
  | (Base & { kind: 'boolean' })
  | (Base & { kind: 'choice'; options: string[] })
  | (Base & { kind: 'strings'; itemLabel: string; options?: string[]; maxItems?: number; maxLength?: number })
  | ObjectNode
  | (Base & { kind: 'objects'; itemLabel: string; item: ObjectNode; maxItems?: number })
  | (Base & { kind: 'map'; keys: { key: string; label: string }[]; value: FormNode })
  | (Base & { kind: 'pairs'; itemLabel: string; value: FormNode })
  /** A value no input types (a union of objects, `unknown`): written as JSON. */
  | (Base & { kind: 'json' });
export type ObjectNode = Base & { kind: 'object'; fields: NodeField[] };
export interface NodeField {
  key: string;
  node: FormNode;
}

export type FormValue = string | boolean | FormValue[] | { [key: string]: FormValue };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A stored settings value as the form shows it. */
export function toFormValue(node: FormNode, value: unknown): FormValue {
  switch (node.kind) {
    case 'text':
    case 'choice':
      return typeof value === 'string' ? value : '';
    case 'number':
      return typeof value === 'number' ? String(value) : '';
    case 'boolean':
      // A yes/no is a checkbox: ticked is true; unticked is false when required, else not set.
      return value === true;
    case 'strings':
      return Array.isArray(value) ? value.map(String) : [];
    case 'object':
      return Object.fromEntries(node.fields.map((f) => [f.key, toFormValue(f.node, isObj(value) ? value[f.key] : undefined)]));
    case 'objects':
      return Array.isArray(value) ? value.map((item) => toFormValue(node.item, item)) : [];
    case 'map':
      return Object.fromEntries(node.keys.map(({ key }) => [key, toFormValue(node.value, isObj(value) ? value[key] : undefined)]));
    case 'pairs':
      return isObj(value) ? Object.entries(value).map(([key, v]) => ({ key, value: toFormValue(node.value, v) })) : [];
    case 'json':
      return value === undefined ? '' : JSON.stringify(value);
  }
}

/** The value of a new, empty field or list item. */
export const blankValue = (node: FormNode): FormValue => toFormValue(node, undefined);

/**
 * A form value as a settings value, or undefined when the field was left empty (empty text,
 * empty lists and list items, objects with nothing in them). Text stays as typed (the schema
 * trims it); a number field that is not a number stays text, so the schema reports it.
 * `paths` receives, for every emitted value, its settings path → its form path: list items
 * that were left empty are dropped, so the two differ, and errors must find their field.
 */
export function fromFormValue(node: FormNode, value: unknown, path: string, formPath: string, paths: Map<string, string>): unknown {
  const out = convert(node, value, path, formPath, paths);
  if (out !== undefined) paths.set(path, formPath);
  return out;
}

function convert(node: FormNode, value: unknown, path: string, formPath: string, paths: Map<string, string>): unknown {
  const text = typeof value === 'string' ? value : '';
  switch (node.kind) {
    case 'text':
    case 'choice':
      return text.trim() === '' ? undefined : text;
    case 'number':
      if (text.trim() === '') return undefined;
      return /^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : text;
    case 'boolean':
      if (node.required) return value === true;
      return value === true ? true : undefined;
    case 'strings': {
      const items = Array.isArray(value) ? value : [];
      const out: string[] = [];
      items.forEach((item, i) => {
        if (typeof item === 'string' && item.trim() !== '') {
          paths.set(`${path}.${out.length}`, `${formPath}.${i}`);
          out.push(item);
        }
      });
      return out.length ? out : undefined;
    }
    case 'object':
      return objectOf(
        node.fields.map((f) => [f.key, f.node]),
        isObj(value) ? value : {},
        path,
        formPath,
        paths,
      );
    case 'map':
      return objectOf(
        node.keys.map(({ key }) => [key, node.value]),
        isObj(value) ? value : {},
        path,
        formPath,
        paths,
      );
    case 'objects': {
      const items = Array.isArray(value) ? value : [];
      const out: unknown[] = [];
      items.forEach((item, i) => {
        const converted = fromFormValue(node.item, item, `${path}.${out.length}`, `${formPath}.${i}`, paths);
        if (converted !== undefined) out.push(converted);
      });
      return out.length ? out : undefined;
    }
    case 'pairs': {
      const items = Array.isArray(value) ? value : [];
      const out: Record<string, unknown> = {};
      items.forEach((item, i) => {
        const pair = isObj(item) ? item : {};
        const key = typeof pair.key === 'string' ? pair.key.trim() : '';
        const converted = fromFormValue(node.value, pair.value, `${path}.${key}`, `${formPath}.${i}`, paths);
        if (converted !== undefined) out[key] = converted;
      });
      return Object.keys(out).length ? out : undefined;
    }
    case 'json':
      return jsonOf(text);
  }
}

/** JSON typed into a field: its value, the text as typed when it is not JSON (the schema says why), undefined when empty. */
export function jsonOf(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** An object with its non-empty fields; undefined when nothing but unticked boxes is left. */
function objectOf(
  fields: [string, FormNode][],
  value: Record<string, unknown>,
  path: string,
  formPath: string,
  paths: Map<string, string>,
): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [key, node] of fields) {
    const converted = fromFormValue(node, value[key], `${path}.${key}`, `${formPath}.${key}`, paths);
    if (converted !== undefined) out[key] = converted;
  }
  return Object.values(out).some((v) => v !== false) ? out : undefined;
}

/**
 * The form path of a settings path from a validation error: the longest emitted prefix's form
 * path plus the rest (a required field left empty was not emitted, but its parent was).
 */
export function formPathOf(path: string, paths: Map<string, string>): string {
  const parts = path.split('.');
  for (let n = parts.length; n > 0; n--) {
    const mapped = paths.get(parts.slice(0, n).join('.'));
    if (mapped !== undefined) return [mapped, ...parts.slice(n)].join('.');
  }
  return path;
}

/** The id of a field's input (or a list's or fieldset's container) in the page. */
export const fieldId = (formPath: string) => `set-${formPath.replaceAll('.', '-')}`;
