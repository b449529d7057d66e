import { z } from 'zod';
import { processState } from '@/lib/core/process-state';

/**
 * JSON Schema for the OpenAPI document, from the zod declarations, shaped for tools that read it:
 * named resource shapes become `components.schemas` entries referenced by `$ref`, the ±2^53
 * bounds zod puts on every integer go (they are no bound at all, and renderers print them as
 * sample values), and a nullable field's description sits beside its `anyOf`, not inside it.
 */
export type Json = Record<string, unknown>;

/** Modules whose exported `…Schema` zod values name components (`LeadSchema` → `Lead`). */
export type SchemaModule = Record<string, unknown>;

const SAFE_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]);

/** zod → JSON Schema as the document wants it, before naming. */
export function toJson(schema: z.ZodType, io: 'input' | 'output'): Json {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  delete json.$schema;
  return tidy(json) as Json;
}

function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if ((k === 'minimum' || k === 'maximum') && SAFE_BOUNDS.has(v as number)) continue;
    // zod spells out its regex for uuid, email, date-time…: the `format` already says it.
    if (k === 'pattern' && typeof (node as Json).format === 'string') continue;
    out[k] = tidy(v);
  }
  // `anyOf: [X, {type: null}]` of a nullable field: X's description is the field's.
  const branches = out.anyOf as Json[] | undefined;
  if (Array.isArray(branches) && branches.some((b) => b.type === 'null')) {
    const described = branches.find((b) => b.type !== 'null' && typeof b.description === 'string');
    if (described && (out.description === undefined || out.description === described.description)) {
      out.description = described.description;
      out.anyOf = branches.map((b) => (b === described ? withoutKey(b, 'description') : b));
    }
  }
  // An empty schema (`{}`) as a union branch says nothing the union does not: the union is "any".
  if (Array.isArray(out.anyOf) && (out.anyOf as Json[]).some((b) => Object.keys(b).length === 0)) {
    const { anyOf: _any, ...rest } = out;
    return rest;
  }
  return out;
}

const withoutKey = (o: Json, key: string) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));

const keys = processState('http.schemaKeys', () => new WeakMap<object, string>());

/** Stable text of a schema, for structural comparison (key order does not count; top-level description does not). */
function keyOf(node: unknown, top = true): string {
  if (!node || typeof node !== 'object') return JSON.stringify(node);
  if (!top) {
    const cached = keys.get(node);
    if (cached !== undefined) return cached;
  }
  let text: string;
  if (Array.isArray(node)) text = `[${node.map((n) => keyOf(n, false)).join(',')}]`;
  else {
    const entries = Object.entries(node)
      .filter(([k]) => !(top && (k === 'description' || k === 'examples')))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    text = `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${keyOf(v, false)}`).join(',')}}`;
  }
  if (!top) keys.set(node, text);
  return text;
}

/**
 * The named components: every exported `XxxSchema` zod object of the given modules, as output
 * (`Xxx`) and, where reading differs from writing (defaults, transforms), as input (`XxxInput`).
 * Objects only: a name for a string or an enum says less than the inline schema.
 */
export class Components {
  readonly schemas: Record<string, Json> = {};
  private byKey = new Map<string, string>();

  constructor(modules: SchemaModule[]) {
    const named: [string, z.ZodType][] = [];
    for (const mod of modules) {
      for (const [exportName, value] of Object.entries(mod)) {
        const m = /^([A-Z][A-Za-z0-9]*)Schema$/.exec(exportName);
        if (m && value instanceof z.ZodType && !named.some(([, s]) => s === value)) named.push([m[1], value]);
      }
    }
    named.sort(([a], [b]) => a.localeCompare(b));
    for (const [name, schema] of named) {
      const output = toJson(schema, 'output');
      if (output.type !== 'object' || !output.properties || this.schemas[name]) continue;
      this.add(name, output);
      const input = toJson(schema, 'input');
      if (keyOf(input) !== keyOf(output)) this.add(`${name}Input`, input);
    }
    // Components refer to each other too (LeadResult → Lead), never to themselves.
    for (const [name, schema] of Object.entries(this.schemas)) this.schemas[name] = this.refer(schema, name);
  }

  private add(name: string, schema: Json) {
    const key = keyOf(schema);
    if (this.byKey.has(key)) return;
    this.byKey.set(key, name);
    this.schemas[name] = schema;
  }

  /** The schema with every subtree equal to a named component replaced by its `$ref` (keeping a field's own description). */
  refer(node: Json, self?: string): Json {
    return this.walk(node, self, true) as Json;
  }

  private walk(node: unknown, self: string | undefined, top: boolean): unknown {
    if (Array.isArray(node)) return node.map((n) => this.walk(n, self, false));
    if (!node || typeof node !== 'object') return node;
    const name = this.byKey.get(keyOf(node));
    if (name && !(top && name === self)) {
      const { description } = node as Json;
      return {
        $ref: `#/components/schemas/${name}`,
        ...(description !== undefined && description !== this.schemas[name].description ? { description } : {}),
      };
    }
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [k, k === 'properties' ? this.walkProps(v as Json, self) : this.walk(v, self, false)]),
    );
  }

  private walkProps(props: Json, self: string | undefined): Json {
    return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, this.walk(v, self, false)]));
  }
}
