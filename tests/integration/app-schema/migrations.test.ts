import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyAppMigration, appSchemaStatus, roleOf } from '@/lib/app-schema/apply';
import { ApiError } from '@/lib/core/errors';
import { getDb } from '@/lib/db/client';
import { createTenant, type Tenant } from '@/tests/helpers/harness';
import { ESCAPES, LEGITIMATE } from './corpus';

let mine: Tenant;
let other: Tenant;
const schema = `app_${randomBytes(5).toString('hex')}`;
const fill = (text: string) => text.replaceAll('{s}', schema);

async function query<T>(text: ReturnType<typeof sql>): Promise<T[]> {
  const db = await getDb();
  return ((await db.execute(text)) as unknown as { rows: T[] }).rows;
}

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the migration was applied').toBeInstanceOf(ApiError);
  return error as ApiError;
}

beforeAll(async () => {
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
});
// Roles belong to the whole Postgres cluster and outlive the test database: dropped here.
afterAll(async () => {
  const role = roleOf(schema);
  await query(sql.raw(`drop schema if exists "${schema}" cascade`));
  await query(
    sql.raw(
      `do $$ begin if exists (select from pg_roles where rolname = '${role}') then execute 'drop owned by "${role}"'; execute 'drop role "${role}"'; end if; end $$`,
    ),
  );
});

describe('legitimate migrations', () => {
  it('are all applied, in order, and recorded', { timeout: 60_000 }, async () => {
    for (const [name, text] of LEGITIMATE) {
      const result = await applyAppMigration({ siteId: mine.siteId, appSchema: schema, name, sql: fill(text) }).catch((error: ApiError) => {
        throw new Error(`${name} refused: ${JSON.stringify(error.details ?? error.message)}`);
      });
      expect(result).toMatchObject({ status: 'applied', name, checksum: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(result.statements).toBeGreaterThan(0);
    }
    expect(await appSchemaStatus(mine.siteId, schema)).toEqual({ exists: true, applied: LEGITIMATE.length });
    const tables = await query<{ relname: string; relrowsecurity: boolean; owner: string }>(sql`
      select c.relname, c.relrowsecurity, pg_get_userbyid(c.relowner) as owner from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${schema} and c.relkind = 'r' order by c.relname`);
    expect(tables.map((t) => t.relname)).toEqual(['Events', 'counters', 'notes', 'tags']);
    // Every table secured, and owned by the app's role, not by the service.
    for (const t of tables) expect(t).toMatchObject({ relrowsecurity: true, owner: roleOf(schema) });
  });

  it('the same name and SQL again is already applied; other SQL under that name is a conflict', async () => {
    const [name, text] = LEGITIMATE[0];
    await expect(applyAppMigration({ siteId: mine.siteId, appSchema: schema, name, sql: fill(text) })).resolves.toMatchObject({
      status: 'already_applied',
      name,
    });
    const conflict = await refusal(applyAppMigration({ siteId: mine.siteId, appSchema: schema, name, sql: `${fill(text)}\n-- changed` }));
    expect(conflict.code).toBe('CONFLICT');
  });

  it('another site cannot touch the schema (403) and does not see it', async () => {
    const error = await refusal(applyAppMigration({ siteId: other.siteId, appSchema: schema, name: 'x', sql: 'create index o on notes (owner)' }));
    expect(error.code).toBe('FORBIDDEN');
    expect(await appSchemaStatus(other.siteId, schema)).toEqual({ exists: false, applied: 0 });
  });

  it('a statement the database refuses rolls the whole migration back (422, its line)', async () => {
    const error = await refusal(
      applyAppMigration({
        siteId: mine.siteId,
        appSchema: schema,
        name: 'bad_ref',
        sql: 'create index ok_idx on notes (owner);\ncreate index bad_idx on missing_table (a);',
      }),
    );
    expect(error.code).toBe('UNPROCESSABLE');
    expect(error.details).toMatchObject({ issues: [{ rule: 'database', line: 2 }] });
    expect(await query(sql`select 1 from pg_class where relname = 'ok_idx'`)).toEqual([]);
    expect((await appSchemaStatus(mine.siteId, schema)).applied).toBe(LEGITIMATE.length);
  });
});

describe(`the escape corpus (${ESCAPES.length} inputs)`, () => {
  it('has at least 60 inputs', () => expect(ESCAPES.length).toBeGreaterThanOrEqual(60));

  it('is refused in full: 422 with {rule, message, line} issues, nothing applied', { timeout: 120_000 }, async () => {
    const applied: string[] = [];
    for (const [index, text] of ESCAPES.entries()) {
      const outcome = await applyAppMigration({ siteId: mine.siteId, appSchema: schema, name: `escape_${index}`, sql: fill(text) }).then(
        (r) => r,
        (e: unknown) => e,
      );
      if (!(outcome instanceof ApiError) || outcome.code !== 'UNPROCESSABLE') {
        applied.push(`${index}: ${JSON.stringify(text)} → ${outcome instanceof ApiError ? outcome.code : JSON.stringify(outcome)}`);
        continue;
      }
      const issues = (outcome.details as { issues: { rule: string; message: string; line: number }[] }).issues;
      expect(issues.length).toBeGreaterThan(0);
      for (const issue of issues) expect(issue).toEqual({ rule: expect.any(String), message: expect.any(String), line: expect.any(Number) });
    }
    expect(applied).toEqual([]);
    // Nothing of them exists: no table outside the app's, no extra table in it, no role, no function.
    expect(
      await query(
        sql`select relname from pg_class where relname in ('x', 'y', 'z', 'v', 'mv', 'i', 'i2') and relnamespace <> 'pg_catalog'::regnamespace`,
      ),
    ).toEqual([]);
    expect(await query(sql`select rolname from pg_roles where rolname = 'evil'`)).toEqual([]);
    expect(await query(sql`select proname from pg_proc where proname in ('f', 'p')`)).toEqual([]);
    expect(await query(sql`select extname from pg_extension where extname in ('dblink', 'plpython3u')`)).toEqual([]);
    expect(await query(sql`select 1 from information_schema.tables where table_schema = 'public' and table_name = 'sites'`)).toHaveLength(1);
    const notes = await query<{ relrowsecurity: boolean }>(
      sql`select c.relrowsecurity from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = ${schema} and c.relname = 'notes'`,
    );
    expect(notes).toEqual([{ relrowsecurity: true }]);
    expect((await appSchemaStatus(mine.siteId, schema)).applied).toBe(LEGITIMATE.length);
  });

  it('names the rule and the line of the offending statement', async () => {
    const error = await refusal(
      applyAppMigration({ siteId: mine.siteId, appSchema: schema, name: 'lines', sql: 'create index a_idx on notes (owner);\n\nset role postgres;' }),
    );
    expect(error.details).toEqual({ issues: [{ rule: 'role', message: expect.any(String), line: 3 }] });
    const rls = await refusal(
      applyAppMigration({ siteId: mine.siteId, appSchema: schema, name: 'rls', sql: '-- new table\ncreate table t1 (a int);' }),
    );
    expect((rls.details as { issues: { rule: string; line: number }[] }).issues.map((i) => [i.rule, i.line])).toEqual([
      ['rls-required', 2],
      ['policy-required', 2],
    ]);
  });

  it('refuses a schema name that is not app_<id> (400)', async () => {
    for (const appSchema of ['public', 'pg_catalog', 'app_X', 'app_a"b', `app_${'a'.repeat(60)}`]) {
      const error = await refusal(applyAppMigration({ siteId: mine.siteId, appSchema, name: 'n', sql: 'create index a on notes (owner)' }));
      expect(error.code).toBe('INVALID_REQUEST');
    }
  });
});
