/**
 * Records the OpenAPI document's examples from the test suites' own calls:
 *   npm run openapi:examples [-- test files or folders]   (default: each integration folder in turn)
 * Runs the suites on PGlite with OPENAPI_EXAMPLES_DIR set (tests/helpers/harness.ts `call`
 * keeps each request and answer), then keeps, per operation and success status, the first answer
 * that matches the documented schema, with its request. One folder at a time, one worker, the
 * file written after each: a slow or failing folder costs only its own examples. Examples not
 * recorded this time (another folder's, or written from the fixtures by hand for an operation no
 * suite calls with success) stay in lib/http/openapi-examples.json; tests/unit/openapi-examples.test.ts
 * checks that every operation has them and that each matches its schema.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { routeManifest, schemaModules } from '@/app/api/openapi.json/manifest';
import { buildOpenApi } from '@/lib/http/openapi';
import { mergeExamples, type ExampleSet, type OperationExamples } from '@/lib/http/openapi-examples';
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
  parameters?: { name: string; in: string; schema: object }[];
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
};

/** A query as its parameters type it: the suites send `limit: '10'` as the URL does, the example shows `10`. */
function typedQuery(query: Record<string, unknown>, op: Op, check: ReturnType<typeof documentValidator>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    const schema = op.parameters?.find((p) => p.in === 'query' && p.name === name)?.schema;
    if (!schema || value === undefined) continue;
    const typed = [value, Number(value), value === 'true' ? true : value === 'false' ? false : value].find((v) => check(schema, v).length === 0);
    if (typed !== undefined) out[name] = typed;
  }
  return out;
}

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
    if (!entry.query && r.query && Object.keys(r.query).length) entry.query = typedQuery(r.query, op, check);
    (entry.responses ??= {})[String(r.status)] = response;
  }
  const merged = mergeExamples(previous, chosen);
  return Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b)));
}

/** Integration folders whose calls are not examples: hostile input, limits, faults, schema corpora. */
const SKIPPED = new Set(['app-schema', 'db', 'hostile', 'jobs', 'ratelimit']);

function record(target: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'openapi-examples-'));
  try {
    const run = spawnSync(path.join('node_modules', '.bin', 'vitest'), ['run', '--project', 'pglite', '--maxWorkers=1', target], {
      stdio: 'inherit',
      env: { ...process.env, OPENAPI_EXAMPLES_DIR: dir },
    });
    if (run.status !== 0) console.warn(`${target}: the suites did not all pass; the answers they gave are kept`);
    const records = readdirSync(dir)
      .sort()
      .flatMap((f) =>
        readFileSync(path.join(dir, f), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Recorded),
      );
    const previous = (JSON.parse(readFileSync(FILE, 'utf8')) as Partial<ExampleSet>).operations ?? {};
    const operations = chooseExamples(records, previous);
    writeFileSync(FILE, JSON.stringify({ operations }, null, 1) + '\n');
    console.log(`${target}: ${records.length} calls recorded; examples for ${Object.keys(operations).length} operations in ${FILE}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) {
  const given = process.argv.slice(2);
  const folders = readdirSync('tests/integration', { withFileTypes: true })
    .filter((d) => d.isDirectory() && !SKIPPED.has(d.name))
    .map((d) => path.posix.join('tests/integration', d.name))
    .sort();
  for (const target of given.length ? given : folders) record(target);
}
