import { routeManifest } from '@/app/api/openapi.json/manifest';
import type { RouteHandler } from '@/lib/http/define-route';
import { buildOpenApi, operationsOf } from '@/lib/http/openapi';
import type { CallOptions } from './harness';

/**
 * A small, seeded request generator over the OpenAPI document (in the spirit of Schemathesis):
 * values from each operation's JSON Schemas, and mutations of them. Deterministic for a seed.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Schema = Record<string, any>;

export interface Operation {
  method: string;
  path: string;
  op: Schema;
  handler: RouteHandler;
  /** Path parameters the documented operation fixes (one operation per workflow name). */
  fixed?: Record<string, string>;
}

/** Every operation of the document, with the handler that serves it. */
export function documentedOperations(): Operation[] {
  const doc = buildOpenApi(routeManifest) as { paths: Record<string, Record<string, Schema>> };
  return operationsOf(routeManifest).flatMap(({ path, method, definition }) => {
    const handler = routeManifest.find((r) => r.path === path)!.module[method] as RouteHandler;
    const variants = definition?.openapi?.variants;
    const entries = variants
      ? variants.values
          .map((v) => ({ docPath: path.replace(`{${variants.param}}`, v.value), fixed: { [variants.param]: v.value } }))
          // A path that a route of its own answers (POST /api/workflow/webhook) is that route's operation.
          .filter((e) => doc.paths[e.docPath]?.[method.toLowerCase()] && !routeManifest.some((r) => r.path === e.docPath))
      : [{ docPath: path, fixed: undefined }];
    return entries.map(({ docPath, fixed }) => {
      const op = doc.paths[docPath]?.[method.toLowerCase()];
      if (!op) throw new Error(`${method} ${docPath} is exported but not documented`);
      return { method, path, op, handler, fixed };
    });
  });
}

/** mulberry32: a tiny seeded PRNG. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
  };
}
export type Rng = ReturnType<typeof rng>;

export const seededUuid = (r: Rng) =>
  'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (c) => (c === 'x' ? r.int(0, 15) : r.int(8, 11)).toString(16));

/** Values of the tenant the generator fills in by field name: its site, ids of its objects. */
export type Known = Record<string, string>;

/** Strings tried, in order, against a `pattern` the generator cannot invert. */
const PATTERN_CANDIDATES = [
  'en',
  'es-MX',
  '#a1b2c3',
  'USD',
  'ada@example.com',
  '2026-01-15',
  '09:30',
  'abc123',
  '1920x1080',
  'shop.example.com',
  'Plain text',
];

function patternValue(pattern: string, r: Rng): string {
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'u');
  } catch {
    re = new RegExp(pattern);
  }
  if (re.test('00000000-0000-4000-8000-000000000000')) return seededUuid(r);
  return PATTERN_CANDIDATES.find((c) => re.test(c)) ?? 'x';
}

function stringValue(s: Schema, name: string, known: Known, r: Rng): string {
  if (known[name] !== undefined) return known[name];
  if (s.format === 'uuid') return seededUuid(r);
  if (s.format === 'email' || name === 'email') return `fuzz-${r.int(0, 1e9)}@example.com`;
  if (name === 'origin') return `https://fuzz-${r.int(0, 1e9)}.example.com`;
  if (s.format === 'uri' || /url$/.test(name)) return 'https://shop.example.com/page';
  if (s.format === 'date') return '2026-01-15';
  if (s.pattern) return patternValue(s.pattern, r);
  const min = s.minLength ?? 1;
  const max = Math.min(s.maxLength ?? 24, Math.max(min, 24));
  const words = ['alpha', 'beta', 'gamma', 'delta', 'lead', 'growth', 'shop'];
  let out = r.pick(words);
  while (out.length < min) out += ' ' + r.pick(words);
  return out.slice(0, max);
}

function numberValue(s: Schema, r: Rng): number {
  const lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 0);
  const hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : lo + 100);
  return s.type === 'integer' ? r.int(Math.ceil(lo), Math.floor(hi)) : Math.round((lo + r.next() * (hi - lo)) * 100) / 100;
}

/** A value meant to satisfy `s` (not guaranteed: semantics and some patterns are beyond a schema). */
export function generate(s: Schema | undefined, r: Rng, known: Known, name = '', depth = 0): Json {
  if (!s || Object.keys(s).length === 0) return r.pick(['text', 1, true, { k: 'v' }]);
  if (s.const !== undefined) return s.const;
  if (s.enum) return r.pick(s.enum);
  if (s.anyOf || s.oneOf) {
    const options = (s.anyOf ?? s.oneOf).filter((o: Schema) => o.type !== 'null' || r.chance(0.1));
    return generate(r.pick(options.length ? options : (s.anyOf ?? s.oneOf)), r, known, name, depth);
  }
  if (s.allOf) return Object.assign({}, ...s.allOf.map((p: Schema) => generate(p, r, known, name, depth)));
  const type = Array.isArray(s.type) ? r.pick(s.type.filter((t: string) => t !== 'null')) : s.type;
  switch (type) {
    case 'string':
      return stringValue(s, name, known, r);
    case 'integer':
    case 'number':
      return numberValue(s, r);
    case 'boolean':
      return r.chance(0.5);
    case 'null':
      return null;
    case 'array': {
      const n = depth > 3 ? (s.minItems ?? 0) : r.int(s.minItems ?? 0, Math.min(s.maxItems ?? 3, (s.minItems ?? 0) + 2));
      return Array.from({ length: n }, () => generate(s.items, r, known, name, depth + 1));
    }
    case 'object':
    default: {
      const out: Record<string, Json> = {};
      const required = new Set<string>(s.required ?? []);
      for (const [key, prop] of Object.entries<Schema>(s.properties ?? {})) {
        if (required.has(key) || known[key] !== undefined || (depth < 3 && r.chance(0.5))) out[key] = generate(prop, r, known, key, depth + 1);
      }
      if (!s.properties && s.additionalProperties && typeof s.additionalProperties === 'object' && depth < 3) {
        const keyFor = (): string => (s.propertyNames?.enum ? r.pick<string>(s.propertyNames.enum) : r.pick(['a', 'b', 'c']));
        for (let i = 0; i < r.int(0, 2); i++) out[keyFor()] = generate(s.additionalProperties, r, known, '', depth + 1);
      }
      return out;
    }
  }
}

/** The hostile strings every text field is tried with (each must be refused, never stored, never a 500). */
export const HOSTILE_STRINGS = ['abc\u0000\u0000', 'x\u001b[31m', 'lone \ud800 surrogate', '\udfff', 'bell\u0007', ''];

/** Nested arrays/objects `levels` deep. */
export const deeplyNested = (levels: number): Json => {
  let v: Json = 'x';
  for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { n: v };
  return v;
};

/** A wrong-typed stand-in for a value of schema `s`. */
export function wrongType(s: Schema | undefined, r: Rng): Json {
  const t = Array.isArray(s?.type) ? s!.type[0] : s?.type;
  const pool: Json[] =
    t === 'string'
      ? [42, true, ['x'], { x: 1 }]
      : t === 'integer' || t === 'number'
        ? ['12', true, [1], { n: 1 }]
        : t === 'boolean'
          ? ['true', 1, null]
          : t === 'array'
            ? ['x', { 0: 'x' }, 3]
            : ['x', 7, [1]];
  return r.pick(pool);
}

/** Numbers at and beyond the edges of `s`, and JSON numbers that are not safe integers. */
export function boundaryNumbers(s: Schema): number[] {
  const out = [-1, 0, 1.5, 2 ** 53 + 2, -(2 ** 63), 1e308, -0];
  if (s.minimum !== undefined) out.push(s.minimum, s.minimum - 1);
  if (s.maximum !== undefined) out.push(s.maximum, s.maximum + 1);
  if (s.exclusiveMinimum !== undefined) out.push(s.exclusiveMinimum);
  return out;
}

/** The schema's properties (for object schemas, through allOf/anyOf as zod emits them). */
export function propertiesOf(s: Schema | undefined): Record<string, Schema> {
  if (!s) return {};
  if (s.properties) return s.properties;
  const parts: Schema[] = s.allOf ?? s.anyOf ?? s.oneOf ?? [];
  return Object.assign({}, ...parts.map(propertiesOf));
}

export type AuthKind = 'apiKey' | 'platformKey' | 'session' | 'public';

export function authOf(op: Schema): { kind: AuthKind; header: (credential: string) => Record<string, string> } {
  // A browser's Origin is the keyless alternative of the tracking routes: the generated requests carry a key.
  const schemes = (op.security as Record<string, unknown>[]).map((s) => Object.keys(s)[0]).filter((s) => s !== 'BrowserOrigin');
  if (schemes.length === 0) return { kind: 'public', header: () => ({}) };
  if (schemes.includes('SessionCookie')) return { kind: 'session', header: (c) => ({ authorization: `Bearer ${c}` }) };
  if (schemes.includes('PlatformKey')) return { kind: 'platformKey', header: (c) => ({ authorization: `Bearer ${c}` }) };
  const scheme = schemes[0];
  const header = scheme === 'SaApiKey' ? 'x-sa-api-key' : scheme === 'ApiKey' ? 'x-api-key' : 'authorization';
  return { kind: 'apiKey', header: (c) => ({ [header]: header === 'authorization' ? `Bearer ${c}` : c }) };
}

export function bodySchemaOf(op: Schema): { type: string; schema: Schema } | undefined {
  const content = op.requestBody?.content as Record<string, { schema: Schema }> | undefined;
  if (!content) return undefined;
  const type = Object.keys(content)[0];
  return { type, schema: content[type].schema };
}

/** A multipart form from generated fields; `file` gets a small text file unless given. */
export function formOf(fields: Record<string, Json | Blob>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (v instanceof Blob) form.append(k, v, (v as File).name ?? 'a.txt');
    else if (v !== undefined) form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return form;
}

/** A request meant to be valid for the tenant whose site and objects `known` names, with `credential`. */
export function validRequest(o: Operation, r: Rng, allKnown: Known, credential: string | undefined): Omit<CallOptions, 'method' | 'path'> {
  const auth = authOf(o.op);
  // Ids known under `<path> <field>` belong to that operation only (e.g. an agent's own conversation).
  const known: Known = { ...allKnown };
  for (const [name, value] of Object.entries(allKnown)) if (name.startsWith(`${o.path} `)) known[name.slice(o.path.length + 1)] = value;
  const params: Record<string, string> = { ...o.fixed };
  const query: Record<string, string> = {};
  for (const p of o.op.parameters as Schema[]) {
    const use = p.in === 'path' || p.required || r.chance(known[p.name] !== undefined ? 0.7 : 0.4);
    if (!use) continue;
    const value = generate(p.schema, r, known, p.name);
    (p.in === 'path' ? params : query)[p.name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  const headers = credential ? auth.header(credential) : {};
  const body = bodySchemaOf(o.op);
  if (!body) return { params, query, headers };
  const value = generate(body.schema, r, known) as Record<string, Json>;
  if (body.type === 'multipart/form-data') {
    delete value.visitor_id;
    return { params, query, headers, form: formOf({ ...value, file: new File(['hello'], 'notes.txt', { type: 'text/plain' }) }) };
  }
  return { params, query, headers, body: value };
}
