import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { database, getDb, useDatabase } from '@/lib/db/client';
import { flushKeyUsage } from '@/lib/keys/usage';
import { openTestDatabase } from '@/tests/helpers/databases';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { useModelForFile } from '@/tests/helpers/llm-standin';
import { captureLogLines } from '@/tests/helpers/log-lines';
import { authOf, bodySchemaOf, documentedOperations, formOf, rng, validRequest, type Json, type Schema } from '@/tests/helpers/openapi-fuzz';
import { createSiteObjects, routeOf } from '@/tests/helpers/site-objects';

useModelForFile();

/**
 * Logs never carry request data. Every table a request can write refuses the write (a trigger
 * raising an error that quotes the row, as real constraint messages quote values); then every
 * operation is called with a recognisable secret in each free-text field, query parameter and
 * JSON object, with a real credential. The failures are logged (SQL state, constraint, table)
 * and the secret, the API key and the session token appear in no line written to stdout/stderr.
 */
const SECRET = 'sgpsecret0hostile0value0d41d8cd98f00b204';

let mine: Tenant;
let known: Record<string, string>;

/** Puts the secret into every free-text string and JSON object of a generated value. */
function inject(schema: Schema | undefined, value: Json): Json {
  if (!schema) return value;
  const options: Schema[] = schema.anyOf ?? schema.oneOf ?? schema.allOf ?? [];
  const type = schema.type ?? options.find((o) => o.type && o.type !== 'null')?.type;
  if (type === 'string' && !schema.enum && !schema.pattern && !schema.format && (schema.maxLength ?? Infinity) >= SECRET.length) {
    return SECRET;
  }
  if (type === 'string' && (schema.format === 'email' || /@/.test(String(value)))) return `${SECRET}@example.com`;
  if (Array.isArray(value)) return value.map((v) => inject(schema.items, v));
  if (value && typeof value === 'object') {
    const props: Record<string, Schema> = schema.properties ?? Object.assign({}, ...options.map((o) => o.properties ?? {}));
    if (Object.keys(props).length === 0 && schema.additionalProperties !== false) return { ...value, note: SECRET };
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inject(props[k], v)]));
  }
  return value;
}

beforeAll(async () => {
  mine = await createTenant();
  known = await createSiteObjects(mine);
  await flushKeyUsage();
  const db = await getDb();
  // Every table a request writes, except the key tables authentication and usage need.
  await db.execute(
    sql.raw(`
    create or replace function refuse_write() returns trigger language plpgsql as $$
    begin raise exception 'write refused for row %', new using errcode = 'P0001'; end $$`),
  );
  await db.execute(
    sql.raw(`
    do $$ declare t text;
    begin
      for t in select table_name from information_schema.tables
               where table_schema = 'public' and table_type = 'BASE TABLE'
                 and table_name not in ('api_keys', 'api_key_usage', 'commands', 'conversations') and table_name not like '%migration%'
      loop
        execute format('create trigger refuse_write before insert or update on %I for each row execute function refuse_write()', t);
      end loop;
    end $$`),
  );
  await db.execute(
    sql.raw(`
    -- Commands (and the conversation a command opens first) fail on a check constraint instead:
    -- Postgres puts the failing row in the error's detail.
    alter table commands add constraint refuse_secret check (task not like 'sgpsecret%') not valid;`),
  );
});
const lines = captureLogLines('debug');

describe('logs carry no request data', () => {
  it('a failing write of every operation logs its SQL state and table, never the secret, key or token', { timeout: 120_000 }, async () => {
    const statuses: string[] = [];
    for (const [index, o] of documentedOperations().entries()) {
      const kind = authOf(o.op).kind;
      const credential =
        kind === 'session' ? mine.user.token : kind === 'apiKey' ? mine.key : kind === 'platformKey' ? known.platform_key : undefined;
      const req = validRequest(o, rng(index), known, credential);
      for (const p of o.op.parameters as Schema[]) {
        if (p.in === 'query' && req.query && p.name in req.query)
          (req.query as Record<string, string>)[p.name] = String(inject(p.schema, req.query[p.name] as string));
      }
      const body = bodySchemaOf(o.op);
      if (body?.type === 'application/json') req.body = inject(body.schema, req.body as Json);
      if (body?.type === 'multipart/form-data')
        req.form = formOf({ site_id: mine.siteId, type: SECRET, file: new File([SECRET], `${SECRET}.txt`, { type: 'text/plain' }) });
      const res = await call(o.handler, { method: o.method, path: o.path, ...req });
      statuses.push(`${o.method} ${o.path} ${res.status}`);
    }
    // Through MCP too: the tool call fails at the database inside the MCP request.
    const mcp = documentedOperations().find((o) => o.path === '/api/mcp')!;
    await call(mcp.handler, {
      method: 'POST',
      path: '/api/mcp',
      headers: { authorization: `Bearer ${mine.key}`, accept: 'application/json, text/event-stream' },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'createLead', arguments: { site_id: mine.siteId, name: SECRET, email: `${SECRET}@example.com` } },
      },
    });
    await flushKeyUsage();

    const failures = statuses.filter((s) => s.endsWith(' 500'));
    // Each failure is logged at error level: as an unhandled error, or by the service that mapped it to its own
    // 500 code (a workflow that could not start).
    const errorLines = lines.filter((l) => l.includes('"level":"error"'));
    // The writes really failed at the database and were logged, with what identifies the failure.
    expect(failures.length, statuses.join('\n')).toBeGreaterThanOrEqual(10);
    expect(errorLines.length).toBeGreaterThanOrEqual(failures.length);
    expect(errorLines.join('\n')).toContain('"code":"P0001"');
    expect(errorLines.join('\n')).toContain('"code":"23514","severity":"ERROR","constraint":"refuse_secret","table":"commands"');
    for (const line of lines) {
      expect(line).not.toContain(SECRET);
      expect(line).not.toContain(mine.key);
      expect(line).not.toContain(known.platform_key);
      expect(line).not.toContain(mine.user.token);
      expect(line).not.toContain('Failed query');
    }
  });

  it('a database that went away logs no request data either', async () => {
    const original = await database();
    const gone = await openTestDatabase();
    await gone.dispose();
    useDatabase(gone.database);
    const from = lines.length;
    try {
      const answers = await Promise.all([
        call(routeOf('POST', '/api/auth/signup'), {
          method: 'POST',
          path: '/api/auth/signup',
          body: { email: `${SECRET}@example.com`, password: SECRET, name: SECRET },
        }),
        call(routeOf('POST', '/api/visitors/sites'), {
          method: 'POST',
          path: '/api/visitors/sites',
          headers: mine.user.auth,
          body: { name: SECRET },
        }),
        call(routeOf('GET', '/api/visitors/sites'), {
          method: 'GET',
          path: '/api/visitors/sites',
          headers: mine.user.auth,
          query: { id: mine.siteId },
        }),
      ]);
      expect(answers.map((a) => a.status)).toEqual([500, 500, 500]);
    } finally {
      useDatabase(original);
    }
    const written = lines.slice(from);
    expect(written.filter((l) => l.includes('"unhandled error"')).length).toBeGreaterThanOrEqual(3);
    for (const line of written) {
      expect(line).not.toContain(SECRET);
      expect(line).not.toContain(mine.user.token);
    }
  });
});
