import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Every app/**\/route.ts, with its URL path in OpenAPI form and whether it is exempt from the manifest. */
export interface RouteFile {
  file: string; // relative to the project root, forward slashes
  urlPath: string; // e.g. /sites/{site_id}
  exempt: boolean;
  /** The HTTP methods the file exports a handler for. */
  methods: string[];
  /** The last segment is a catch-all (`[...name]`): it matches one or more segments. */
  catchAll: boolean;
  /** A handler of the file declares that the server entry's fast path serves it (`fastPath`; see withFastPath). */
  fast: boolean;
}

const EXEMPT_MARKER = '// route-manifest: exempt';

export function findRouteFiles(root = process.cwd()): RouteFile[] {
  const out: RouteFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name === 'route.ts') out.push(toRouteFile(root, rel));
    }
  };
  walk('app');
  return out.sort((a, b) => a.urlPath.localeCompare(b.urlPath));
}

const METHOD = '(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)';
/** `export const GET`, `export async function GET`, or `export { handler as GET }`. */
const EXPORTED_METHOD = new RegExp(`^export (?:const|(?:async )?function) ${METHOD}\\b`, 'gm');
const RENAMED_METHOD = new RegExp(`\\bas ${METHOD}\\b`, 'g');

function exportedMethods(source: string): string[] {
  const methods = new Set([...source.matchAll(EXPORTED_METHOD)].map((m) => m[1]));
  for (const list of source.matchAll(/^export \{([^}]*)\}/gm)) for (const m of list[1].matchAll(RENAMED_METHOD)) methods.add(m[1]);
  return [...methods].sort();
}

function toRouteFile(root: string, file: string): RouteFile {
  const dirs = path.posix
    .dirname(file)
    .split('/')
    .slice(1)
    .filter((s) => !/^\(.*\)$/.test(s)); // route groups do not appear in URLs
  const segments = dirs.map((s) => s.replace(/^\[\.\.\.(.+)\]$/, '{$1}').replace(/^\[(.+)\]$/, '{$1}'));
  const source = readFileSync(path.join(root, file), 'utf8');
  return {
    file,
    urlPath: '/' + segments.join('/'),
    exempt: source.includes(EXEMPT_MARKER),
    fast: false,
    methods: exportedMethods(source),
    catchAll: /^\[\.\.\..+\]$/.test(dirs.at(-1) ?? ''),
  };
}

/** The route module's exported handlers, by method. */
async function handlersOf(root: string, file: string): Promise<Record<string, unknown>> {
  return (await import(path.join(root, file))) as Record<string, unknown>;
}

/** Whether an exported handler declares itself served by the fast path (defineRoute's `fastPath`, `servedFast`). */
export const declaresFastPath = (handler: unknown): boolean =>
  typeof handler === 'function' && typeof (handler as { fastPath?: unknown }).fastPath === 'string';

/**
 * The route files with `fast` read from their declarations: a route opts into the server entry's
 * fast path with `fastPath: 'why'` in its declaration (or `servedFast('why', handler)` for a plain
 * handler); nothing else makes a route fast. The modules are imported: the declaration is the
 * handler's own property, not a line of text.
 */
export async function withFastPath(files: RouteFile[], root = process.cwd()): Promise<RouteFile[]> {
  return Promise.all(files.map(async (f) => ({ ...f, fast: Object.values(await handlersOf(root, f.file)).some(declaresFastPath) })));
}

/**
 * The source of lib/http/route-table.json: every route's path and methods, for the server entry,
 * which answers a path no route has (404) and a method its route lacks (405) before either
 * serving path sees the request (lib/http/server-edges.mjs).
 */
export function renderRouteTable(files: RouteFile[]): string {
  const routes = files.map((f) =>
    JSON.stringify({ path: f.urlPath, methods: f.methods, ...(f.catchAll ? { catch_all: true } : {}), ...(f.fast ? { fast_path: true } : {}) }),
  );
  return `{\n  "generated_by": "npm run routes",\n  "routes": [\n    ${routes.join(',\n    ')}\n  ]\n}\n`;
}

/**
 * Every domain's zod module (lib/<domain>/schema.ts, lib/core/schemas.ts): their exported
 * `XxxSchema` shapes are the document's named components.
 */
export function findSchemaModules(root = process.cwd()): string[] {
  const domains = readdirSync(path.join(root, 'lib'), { withFileTypes: true }).filter((d) => d.isDirectory() && d.name !== 'db');
  return domains
    .flatMap((d) => ['schema.ts', 'schemas.ts'].map((f) => `lib/${d.name}/${f}`))
    .filter((file) => existsSync(path.join(root, file)))
    .sort();
}

/** The source of app/api/openapi.json/manifest.ts for these route files and schema modules. */
export function renderManifest(files: RouteFile[], schemaFiles: string[] = findSchemaModules()): string {
  const routes = files.filter((f) => !f.exempt);
  const imports = routes.map((r, i) => `import * as r${i} from '@/${r.file.replace(/\.ts$/, '')}';`);
  const entries = routes.map((r, i) => `  { path: '${r.urlPath}', module: r${i} },`);
  const schemaImports = schemaFiles.map((f, i) => `import * as s${i} from '@/${f.replace(/\.ts$/, '')}';`);
  return [
    '// Generated by `npm run routes` from app/**/route.ts and lib/*/schema.ts. Do not edit; a test fails when it is stale.',
    "import type { RouteManifest } from '@/lib/http/openapi';",
    "import type { SchemaModule } from '@/lib/http/openapi-schemas';",
    ...imports,
    ...schemaImports,
    '',
    'export const routeManifest: RouteManifest = [',
    ...entries,
    '];',
    '',
    `export const schemaModules: SchemaModule[] = [${schemaFiles.map((_, i) => `s${i}`).join(', ')}];`,
    '',
  ].join('\n');
}

/** The source of scripts/fast-routes.ts: the routes whose declarations say `fastPath`, for the fast path's dispatcher. */
export function renderFastRoutes(files: RouteFile[]): string {
  const fast = files.filter((f) => f.fast);
  return [
    '// Generated by `npm run routes` from the routes that declare `fastPath`. Do not edit; a test fails when it is stale.',
    "import type { NodeRoute } from '@/lib/http/node-dispatch';",
    ...fast.map((r, i) => `import * as r${i} from '@/${r.file.replace(/\.ts$/, '')}';`),
    '',
    "/** The routes the fast path serves, by the path the route manifest gives their module (t.js: its file's path). */",
    'export const FAST_ROUTES: NodeRoute[] = [',
    ...fast.map((r, i) => `  { path: '${r.urlPath}', module: r${i} },`),
    '];',
    '',
  ].join('\n');
}
