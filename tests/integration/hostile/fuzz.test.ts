import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey, generatePlatformKey } from '@/lib/auth/api-key-format';
import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from '@/lib/core/errors';
import { grantCredits } from '@/lib/finder/credits-repo';
import { setSitePlan } from '@/lib/sites/repo';
import { ENDS_SESSION } from '@/tests/helpers/auth-matrix';
import { call, createTenant, runsHere, newSessionToken, type CallOptions, type Tenant } from '@/tests/helpers/harness';
import { useModelForFile } from '@/tests/helpers/llm-standin';
import {
  HOSTILE_STRINGS,
  boundaryNumbers,
  deeplyNested,
  documentedOperations,
  generate,
  propertiesOf,
  authOf,
  bodySchemaOf,
  formOf,
  validRequest,
  rng,
  seededUuid,
  wrongType,
  type Json,
  type Known,
  type Operation,
  type AuthKind,
  type Rng,
  type Schema,
} from '@/tests/helpers/openapi-fuzz';
import { useFinderStandIns } from '@/tests/helpers/people-data-standin';
import { createApp, createPlatformKey } from '@/tests/helpers/platform';
import { createSiteObjects, siteFingerprint } from '@/tests/helpers/site-objects';

useModelForFile();

/**
 * Every operation of the OpenAPI document, called in-process with generated requests: valid
 * ones, each credential case, and mutations of params, query and body. For every answer:
 * never a 500 (502/503 only where documented), a status the operation documents, the error
 * envelope on errors (code matching the status), the documented schema on success, and for a
 * refused request nothing written for the sites involved. The other tenant's data never changes.
 * Seeded (FUZZ_SEED) and bounded (MAX_PER_OPERATION); a new route is covered when it is in the manifest.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const MAX_PER_OPERATION = 90;
/** Narrows a run to the operations whose `METHOD path` matches (to reproduce one finding). */
const ONLY = process.env.FUZZ_ONLY ? new RegExp(process.env.FUZZ_ONLY) : undefined;

let mine: Tenant;
let other: Tenant;
let known: Known;
let otherPlatformKey: string;
/** The session tokens of the operation under test: the tenants' own, or sessions of its own for one that ends its session. */
let sessions: { mine: string; other: string };
const validCredential = (kind: AuthKind) =>
  kind === 'session' ? sessions.mine : kind === 'apiKey' ? mine.key : kind === 'platformKey' ? known.platform_key : undefined;

let finder: { close(): Promise<void> } | undefined;
beforeAll(async () => {
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
  // The finder's providers are local stand-ins, and the caller's site has credits to spend.
  finder = await useFinderStandIns('fuzz');
  // Room for a run of every workflow at once: an enterprise plan lifts the site's running-run cap.
  await setSitePlan(mine.siteId, { plan: 'enterprise', rate_limit_per_minute: 100_000, concurrency_limit: 100 });
  known = {
    ...(await createSiteObjects(mine)),
    // A confirmation that never matches: deleting the caller's site would end the run for every later
    // operation (the deletion itself is covered by tests/integration/sites/update-delete.test.ts).
    '/api/sites/{site_id} confirm': 'a name no site has',
    // A migration the rules accept (the same one each time: applied once, then already applied).
    '/api/platform/db/migrations name': '0001_fuzz_notes',
    '/api/platform/db/migrations sql':
      'create table notes (id int primary key); alter table notes enable row level security; create policy notes_all on notes to public using (true);',
  };
  otherPlatformKey = (await createPlatformKey(other, (await createApp(other)).id)).platformKey;
  await grantCredits(mine.siteId, 1_000_000);
});
afterAll(async () => {
  await finder?.close();
});

interface Case {
  name: string;
  request: Omit<CallOptions, 'method' | 'path'>;
  /** The status the case must get, when the spec fixes it (credential failures). */
  expect?: number;
}

function credentialCases(o: Operation, r: Rng): Case[] {
  const auth = authOf(o.op);
  const withCredential = (name: string, credential: string, expected?: number): Case => ({
    name: `credential: ${name}`,
    request: validRequest(o, r, known, credential),
    expect: expected,
  });
  if (auth.kind === 'public') return [];
  const cases: Case[] = [
    { name: 'credential: none', request: validRequest(o, r, known, undefined), expect: 401 },
    withCredential('malformed', 'not-a-credential\u0001', 401),
    withCredential('other tenant', auth.kind === 'session' ? sessions.other : auth.kind === 'platformKey' ? otherPlatformKey : other.key),
  ];
  if (auth.kind === 'platformKey') {
    cases.push(
      withCredential('unknown platform key', generatePlatformKey(), 401),
      withCredential('API key for a platform key', mine.key, 401),
      withCredential('session token for a platform key', mine.user.token, 401),
    );
  } else if (auth.kind === 'apiKey') {
    cases.push(
      withCredential('unknown key', generateApiKey('key'), 401),
      withCredential('revoked key', mine.revokedKey, 401),
      withCredential('expired key', mine.expiredKey, 401),
      withCredential('session token for a key', mine.user.token, 401),
      withCredential('read-only key', mine.readKey),
    );
  } else {
    cases.push(withCredential('API key for a session', mine.key, 401));
  }
  if (auth.kind !== 'platformKey') cases.push(withCredential('platform key', known.platform_key, 401));
  return cases;
}

const HUGE = 'x'.repeat(300_000);

function mutationCases(o: Operation, r: Rng): Case[] {
  const credential = validCredential(authOf(o.op).kind);
  const base = () => validRequest(o, r, known, credential);
  const cases: Case[] = [];
  for (const p of o.op.parameters as Schema[]) {
    const bad = [
      'not-a-uuid',
      seededUuid(r),
      r.pick(HOSTILE_STRINGS),
      HUGE.slice(0, 5000),
      '-1',
      '1e999',
      String(2 ** 53 + 2),
      '1.5',
      ...boundaryNumbers(p.schema ?? {})
        .slice(0, 3)
        .map(String),
    ];
    for (const value of bad) {
      const req = base();
      (p.in === 'path' ? req.params! : (req.query as Record<string, string>))[p.name] = value;
      cases.push({ name: `${p.in} ${p.name}=${JSON.stringify(value.slice(0, 20))}`, request: req });
    }
    if (p.required && p.in === 'query') {
      const req = base();
      delete (req.query as Record<string, string>)[p.name];
      cases.push({ name: `query ${p.name} missing`, request: req });
    }
  }
  const body = bodySchemaOf(o.op);
  if (!body) return cases;
  const multipart = body.type === 'multipart/form-data';
  const withBody = (name: string, mutate: (b: Record<string, Json>) => Json) => {
    const req = base();
    const value = multipart ? (generate(body.schema, r, known) as Record<string, Json>) : (req.body as Record<string, Json>);
    const mutated = mutate(value);
    if (multipart) {
      const fields = mutated as Record<string, Json | Blob>;
      if (!('file' in fields)) fields.file = new File(['hello'], 'notes.txt', { type: 'text/plain' });
      req.form = formOf(fields);
    } else req.body = mutated;
    cases.push({ name, request: req });
  };
  const props = propertiesOf(body.schema);
  const required: string[] = body.schema.required ?? [];
  for (const name of required) withBody(`body missing ${name}`, (b) => (delete b[name], b));
  withBody('body extra field', (b) => ({ ...b, unexpected_field: 'x' }));
  for (const [name, schema] of Object.entries(props)) {
    withBody(`body ${name} wrong type`, (b) => ({ ...b, [name]: wrongType(schema, r) }));
    withBody(`body ${name} hostile text`, (b) => ({ ...b, [name]: r.pick(HOSTILE_STRINGS) }));
    withBody(`body ${name} huge`, (b) => ({ ...b, [name]: HUGE }));
    withBody(`body ${name} deep`, (b) => ({ ...b, [name]: deeplyNested(r.pick([30, 70, 2000])) }));
    withBody(`body ${name} nested NUL`, (b) => ({ ...b, [name]: { note: 'ok', list: ['fine', 'bad\u0000'] } }));
    const type = schema.type ?? schema.anyOf?.[0]?.type;
    if (type === 'integer' || type === 'number') {
      const n = r.pick(boundaryNumbers(schema));
      withBody(`body ${name}=${n}`, (b) => ({ ...b, [name]: n }));
    }
  }
  withBody('body key with NUL', (b) => ({ ...b, ['bad\u0000key']: 'x' }));
  if (multipart) {
    const req = base();
    cases.push({
      name: 'file name with NUL',
      request: { ...req, form: formOf({ site_id: mine.siteId, file: new File(['hello'], 'a\u0000b.txt', { type: 'text/plain' }) }) },
    });
    cases.push({ name: 'JSON instead of multipart', request: { ...base(), form: undefined, body: { site_id: mine.siteId } } });
  } else {
    withBody('body array', (b) => [b]);
    withBody('body null', () => null);
    withBody('body string', () => 'hello');
    const json = JSON.stringify(base().body);
    cases.push({
      name: 'bad JSON',
      request: { ...base(), body: undefined, rawBody: json.slice(0, -1), headers: { ...base().headers, 'content-type': 'application/json' } },
    });
    cases.push({
      name: 'wrong content type',
      request: { ...base(), body: undefined, rawBody: json, headers: { ...base().headers, 'content-type': 'application/xml' } },
    });
    cases.push({
      name: 'empty body',
      request: { ...base(), body: undefined, rawBody: '', headers: { ...base().headers, 'content-type': 'application/json' } },
    });
    const deep = 200_000;
    cases.push({
      name: `body nested ${deep} levels`,
      request: {
        ...base(),
        body: undefined,
        rawBody: '{"a":'.repeat(deep) + '1' + '}'.repeat(deep),
        headers: { ...base().headers, 'content-type': 'application/json' },
      },
    });
    cases.push({
      name: 'raw NUL byte in JSON text',
      request: {
        ...base(),
        body: undefined,
        rawBody: json.replace(/"([^"]*)"/, '"$1\u0000"'),
        headers: { ...base().headers, 'content-type': 'application/json' },
      },
    });
  }
  return cases;
}

/** Deterministic sample of at most `max` cases, keeping the valid and credential ones. */
function bounded(cases: Case[], r: Rng, keep: number, max: number): Case[] {
  const rest = cases.slice(keep);
  while (keep + rest.length > max) rest.splice(r.int(0, rest.length - 1), 1);
  return [...cases.slice(0, keep), ...rest];
}

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
addFormats(ajv);
const withoutSchemaKeyword = (s: unknown): unknown =>
  Array.isArray(s)
    ? s.map(withoutSchemaKeyword)
    : s && typeof s === 'object'
      ? Object.fromEntries(
          Object.entries(s)
            .filter(([k]) => k !== '$schema')
            .map(([k, v]) => [k, withoutSchemaKeyword(v)]),
        )
      : s;

function checkAnswer(o: Operation, c: Case, status: number, body: any): string | undefined {
  const documented = Object.keys(o.op.responses);
  if (status >= 500 && !(status !== 500 && documented.includes(String(status))))
    return `server error ${status}: ${JSON.stringify(body).slice(0, 300)}`;
  if (!documented.includes(String(status))) return `undocumented status ${status}: ${JSON.stringify(body).slice(0, 300)}`;
  if (c.expect !== undefined && status !== c.expect) return `expected ${c.expect}, got ${status}`;
  if (status >= 400) {
    const e = body?.error;
    const ok =
      body?.success === false &&
      typeof e?.message === 'string' &&
      typeof e?.request_id === 'string' &&
      ERROR_CODES.includes(e?.code) &&
      ERROR_STATUS[e.code as ErrorCode] === status;
    return ok ? undefined : `not the error envelope: ${JSON.stringify(body).slice(0, 300)}`;
  }
  const content = o.op.responses[String(status)]?.content ?? {};
  const schema = content['application/json']?.schema;
  // A download (a CSV, a zip) is its text or its bytes.
  if (!schema) return typeof body === 'string' || Buffer.isBuffer(body) ? undefined : `a ${Object.keys(content).join(' or ')} answer expected`;
  const validate = ajv.compile(withoutSchemaKeyword(schema) as object);
  return validate(body) ? undefined : `success body does not match the documented schema: ${ajv.errorsText(validate.errors)}`;
}

describe('OpenAPI-driven fuzz', () => {
  const operations = documentedOperations().filter((o) => runsHere(o.path));

  it('covers every operation of the document', () => {
    expect(operations.length).toBeGreaterThan(30);
  });

  // One test per operation (each with its own time), then the checks over the whole run.
  const counts: Record<string, { requests: number; success: number }> = {};
  const sites = () => [mine.siteId, other.siteId];
  const otherSite = async () => {
    const { counts: _global, ...rows } = await siteFingerprint([other.siteId]);
    return rows;
  };
  let otherBefore: Awaited<ReturnType<typeof otherSite>>;
  beforeAll(async () => {
    otherBefore = await otherSite();
  });

  for (const [index, o] of operations.entries()) {
    // One operation per workflow: each is its own entry.
    const label = `${o.method} ${o.path}${o.fixed ? ` ${Object.values(o.fixed).join(' ')}` : ''}`;
    it.skipIf(ONLY && !ONLY.test(label))(
      `${label}: never 500, an undocumented status or a wrong envelope; writes nothing when it refuses (seed ${SEED})`,
      { timeout: 120_000 },
      async () => {
        const failures: string[] = [];
        let before = await siteFingerprint(sites());
        sessions = ENDS_SESSION.has(`${o.method} ${o.path}`)
          ? { mine: await newSessionToken(mine.user), other: await newSessionToken(other.user) }
          : { mine: mine.user.token, other: other.user.token };
        const r = rng(SEED + index);
        const valid: Case[] = Array.from({ length: 3 }, (_, i) => ({
          name: `valid #${i + 1}`,
          request: validRequest(o, r, known, validCredential(authOf(o.op).kind)),
        }));
        const credentials = credentialCases(o, r);
        const cases = bounded([...valid, ...credentials, ...mutationCases(o, r)], r, valid.length + credentials.length, MAX_PER_OPERATION);
        counts[label] = { requests: 0, success: 0 };
        for (const c of cases) {
          let status: number;
          let body: unknown;
          try {
            ({ status, body } = await call(o.handler, { method: o.method, path: o.path, ...c.request }));
          } catch (error) {
            failures.push(`[${c.name}]: threw or answered non-JSON: ${String(error).slice(0, 200)}`);
            continue;
          }
          counts[label].requests++;
          if (status < 300) counts[label].success++;
          const problem = checkAnswer(o, c, status, body);
          if (problem) failures.push(`[${c.name}]: ${problem}`);
          const after = await siteFingerprint(sites());
          if (status >= 400 && JSON.stringify(after) !== JSON.stringify(before)) {
            const changed = Object.keys(after).filter((k) => after[k] !== before[k]);
            failures.push(`[${c.name}]: refused with ${status} but wrote to ${changed.join(', ')}`);
          }
          before = after;
        }
        expect(failures).toEqual([]);
      },
    );
  }

  it(`leaves the other tenant's data alone and reaches the handlers (seed ${SEED})`, async () => {
    expect(await otherSite(), "the other tenant's data changed").toEqual(otherBefore);
    const total = Object.values(counts).reduce((n, c) => n + c.requests, 0);
    console.log(
      `fuzz seed ${SEED}: ${total} requests over ${operations.length} operations\n` +
        Object.entries(counts)
          .map(([op, c]) => `  ${op}: ${c.requests} requests, ${c.success} 2xx`)
          .join('\n'),
    );
    // The generator must reach the handlers: most operations get a success from a generated request.
    if (!ONLY) {
      const reached = Object.values(counts).filter((c) => c.success > 0).length;
      expect(reached, 'operations with at least one 2xx').toBeGreaterThanOrEqual(Math.floor(Object.keys(counts).length * 0.85));
    }
  });
});
