/**
 * Records the OpenAPI document's examples from the test suites' own calls:
 *   npm run openapi:examples [-- test files or folders]   (default: every integration suite)
 * Runs the suites on PGlite with OPENAPI_EXAMPLES_DIR set (tests/helpers/harness.ts `call`
 * keeps each request and answer), then keeps, per operation and success status, the first answer
 * that matches the documented schema, with its request. Operations not called this time keep
 * their examples in lib/http/openapi-examples.json. A new route needs only a suite that calls it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { routeManifest, schemaModules } from '@/app/api/openapi.json/manifest';
import { buildOpenApi } from '@/lib/http/openapi';
import type { ExampleSet, OperationExamples } from '@/lib/http/openapi-examples';
import { documentValidator } from '@/tests/helpers/openapi-validate';

const FILE = 'lib/http/openapi-examples.json';

interface Recorded {
  method: string;
  path: string;
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  request?: unknown;
  status: number;
  response: unknown;
}

/** Long lists make long documents: an example shows at most three items. */
function trimmed(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 3).map(trimmed);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimmed(v)]));
}

type Doc = { paths: Record<string, Record<string, Op>>; components: object };
type Op = {
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
};

export function chooseExamples(records: Recorded[], previous: ExampleSet['operations']): ExampleSet['operations'] {
  const doc = buildOpenApi(routeManifest, { schemaModules, examples: { operations: {}, errors: {} as ExampleSet['errors'] } }) as unknown as Doc;
  const check = documentValidator(doc);
  const chosen: ExampleSet['operations'] = {};
  for (const r of records) {
    if (r.status >= 400) continue;
    // A route documented per variant (one operation per workflow) is found by its fixed parameter.
    const docPath = r.path.replace(/\{([^}]+)\}/g, (whole, name: string) => (doc.paths[r.path] ? whole : (r.params?.[name] ?? whole)));
    const op = doc.paths[docPath]?.[r.method.toLowerCase()];
    const schema = op?.responses[String(r.status)]?.content?.['application/json']?.schema;
    if (!op || !schema) continue;
    const key = `${r.method} ${docPath}`;
    const entry: OperationExamples = (chosen[key] ??= {});
    if (entry.responses?.[String(r.status)] !== undefined) continue;
    const response = [trimmed(r.response), r.response].find((v) => check(schema, v).length === 0);
    if (response === undefined) continue;
    const bodySchema = op.requestBody?.content['application/json']?.schema;
    if (bodySchema && !('request' in entry)) {
      if (r.request === undefined || check(bodySchema, r.request).length) continue;
      entry.request = r.request;
    }
    if (!entry.params && r.params && Object.keys(r.params).length) entry.params = r.params;
    if (!entry.query && r.query && Object.keys(r.query).length) entry.query = r.query;
    (entry.responses ??= {})[String(r.status)] = response;
  }
  const merged = { ...previous, ...chosen };
  return Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b)));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'openapi-examples-'));
  try {
    const targets = process.argv.slice(2);
    spawnSync(path.join('node_modules', '.bin', 'vitest'), ['run', '--project', 'pglite', ...(targets.length ? targets : ['tests/integration'])], {
      stdio: 'inherit',
      env: { ...process.env, OPENAPI_EXAMPLES_DIR: dir },
    });
    const records = readdirSync(dir)
      .sort()
      .flatMap((f) => readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Recorded));
    const previous = (JSON.parse(readFileSync(FILE, 'utf8')) as Partial<ExampleSet>).operations ?? {};
    const operations = chooseExamples(records, previous);
    writeFileSync(FILE, JSON.stringify({ operations }, null, 1) + '\n');
    console.log(`${records.length} calls recorded; examples for ${Object.keys(operations).length} operations in ${FILE}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
