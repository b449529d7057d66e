/**
 * The served OpenAPI document, split by tag: `/api/openapi.json` keeps the info, tags and shared
 * components and refers to each path item in the part of its tag (`/api/openapi/<tag>.json`),
 * whose own references point back at the main document's components. Every tool that follows
 * relative `$ref`s (Spectral, Redocly, openapi-typescript, Prism) reads the split as one document;
 * `bundleOpenApi` puts it back together for a renderer given the parts.
 */
import type { Json } from './openapi-schemas';

export type Doc = {
  openapi: string;
  info: { title: string; version: string; description?: string };
  tags?: { name: string }[];
  paths: Record<string, Json>;
  components?: Json;
} & Json;

/** Where a part lives relative to the main document, and where the main one is from a part. */
const PART_DIR = 'openapi';
const MAIN_FROM_PART = '../openapi.json';

/** `Platform apps and keys` → `platform-apps-and-keys`. */
export const partName = (tag: string) =>
  tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** A path as a JSON Pointer token inside a URI fragment (`/sites/{site_id}` → `~1sites~1%7Bsite_id%7D`). */
const pointerToken = (path: string) => encodeURIComponent(path.replace(/~/g, '~0').replace(/\//g, '~1'));
const fromPointerToken = (token: string) => decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');

/** Every `$ref` of a tree rewritten by `f` (a fresh copy; the input is left as it is). */
function mapRefs(node: unknown, f: (ref: string) => string): unknown {
  if (Array.isArray(node)) return node.map((n) => mapRefs(n, f));
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? f(v) : mapRefs(v, f)]));
}

/** The tag of a path item: its first operation's first tag. */
function tagOf(item: Json): string {
  const op = Object.values(item).find((o): o is { tags?: string[] } => !!o && typeof o === 'object' && 'responses' in o);
  return op?.tags?.[0] ?? 'Meta';
}

export interface SplitDocument {
  main: Doc;
  /** By file name (`tools.json`), each served at `/api/openapi/<file>`. */
  parts: Record<string, Doc>;
}

export function splitOpenApi(doc: Doc): SplitDocument {
  const parts: Record<string, Doc> = {};
  const paths: Record<string, Json> = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    const tag = tagOf(item);
    const file = `${partName(tag)}.json`;
    parts[file] ??= {
      openapi: doc.openapi,
      info: {
        ...doc.info,
        title: `${doc.info.title}: ${tag}`,
        description: `The ${tag} operations; the shared components are in ${MAIN_FROM_PART}.`,
      },
      tags: (doc.tags ?? []).filter((t) => t.name === tag),
      paths: {},
    };
    parts[file].paths[path] = mapRefs(item, (ref) => (ref.startsWith('#/') ? `${MAIN_FROM_PART}${ref}` : ref)) as Json;
    paths[path] = { $ref: `${PART_DIR}/${file}#/paths/${pointerToken(path)}` };
  }
  return { main: { ...doc, paths }, parts };
}

/** The parts a main document refers to (file names). */
export function partsOf(main: Doc): string[] {
  const files = new Set<string>();
  for (const item of Object.values(main.paths)) {
    const m = typeof item.$ref === 'string' ? /^openapi\/([^#]+)#/.exec(item.$ref) : null;
    if (m) files.add(m[1]);
  }
  return [...files];
}

/** The one document again: each path item from its part, references local to it. */
export function bundleOpenApi(main: Doc, parts: Record<string, Doc>): Doc {
  const paths: Record<string, Json> = {};
  for (const [path, item] of Object.entries(main.paths)) {
    const m = typeof item.$ref === 'string' ? /^openapi\/([^#]+)#\/paths\/(.+)$/.exec(item.$ref) : null;
    if (!m) {
      paths[path] = item;
      continue;
    }
    const found = parts[m[1]]?.paths[fromPointerToken(m[2])];
    if (!found) throw new Error(`The part ${m[1]} has no path ${path}`);
    paths[path] = mapRefs(found, (ref) => (ref.startsWith(`${MAIN_FROM_PART}#/`) ? ref.slice(MAIN_FROM_PART.length) : ref)) as Json;
  }
  return { ...main, paths };
}
