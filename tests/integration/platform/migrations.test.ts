import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as migrateRoute } from '@/app/api/platform/db/migrations/route';
import { GET as meRoute } from '@/app/api/platform/me/route';
import { rows } from '@/lib/db/raw';
import { call } from '@/tests/helpers/harness';
import { platformAuth, suitePlatformApps } from '@/tests/helpers/platform';

/** POST /api/platform/db/migrations: the route over the app-schema engine (its rules: tests/integration/app-schema). */
const { other, app, otherApp } = suitePlatformApps();

const migrate = (key: string, body: Record<string, unknown>) =>
  call(migrateRoute, { method: 'POST', path: '/api/platform/db/migrations', headers: platformAuth(key), body });
const me = async (key: string) => {
  const res = await call(meRoute, { path: '/api/platform/me', headers: platformAuth(key) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
const quotaUsed = (data: { quotas: { capability: string; used: number }[] }) => data.quotas.find((q) => q.capability === 'db.migrate')!.used;

const ORDERS = `
  create table orders (id uuid primary key default gen_random_uuid(), owner text not null, total numeric not null);
  alter table orders enable row level security;
  create policy orders_owner on orders to public using (owner = current_setting('app.user', true));
`;

describe('POST /api/platform/db/migrations', () => {
  it("applies a migration to the key's own app schema and /me counts it", async () => {
    expect((await me(app.key)).schema).toMatchObject({ name: app.appSchema, exists: false, applied: 0 });
    const res = await migrate(app.key, { name: '0001_orders', sql: ORDERS });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      data: { status: 'applied', name: '0001_orders', statements: 3, checksum: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    const [table] = await rows<{ rls: boolean }>(
      sql`select c.relrowsecurity as rls from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = ${app.appSchema} and c.relname = 'orders'`,
    );
    expect(table).toEqual({ rls: true });
    const data = await me(app.key);
    expect(data.schema).toEqual({ name: app.appSchema, exists: true, applied: 1 });
    expect(quotaUsed(data)).toBe(1);
    // Another site's app sees nothing of it.
    expect((await me(otherApp.key)).schema).toMatchObject({ exists: false, applied: 0 });
  });

  it('the same name and SQL again is already applied; the same name with other SQL is a conflict', async () => {
    expect((await migrate(app.key, { name: '0001_orders', sql: ORDERS })).body.data).toMatchObject({ status: 'already_applied', statements: 3 });
    const changed = await migrate(app.key, { name: '0001_orders', sql: `${ORDERS}\ncomment on table orders is 'changed';` });
    expect(changed.status).toBe(409);
    expect(changed.body).toMatchObject({ success: false, error: { code: 'CONFLICT' } });
  });

  it('a refused migration is 422 with its issues, changes nothing and costs no quota', async () => {
    const before = await me(app.key);
    const res = await migrate(app.key, {
      name: `0002_${randomBytes(3).toString('hex')}`,
      sql: 'create table public.stolen (id int);\nalter table orders enable row level security;',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toMatchObject({ success: false, error: { code: 'UNPROCESSABLE' } });
    expect(res.body.error.details.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ rule: 'other-schema', line: 1, message: expect.any(String) })]),
    );
    expect(await rows(sql`select 1 from pg_tables where schemaname = 'public' and tablename = 'stolen'`)).toEqual([]);
    const after = await me(app.key);
    expect(after.schema.applied).toBe(before.schema.applied);
    expect(quotaUsed(after)).toBe(quotaUsed(before));
  });

  it('a body naming another site is refused; the schema always comes from the key', async () => {
    const res = await migrate(app.key, { site_id: other.siteId, name: '0003_x', sql: ORDERS });
    expect(res.status).toBe(403);
    const strict = await migrate(app.key, { name: '0003_x', sql: ORDERS, schema: otherApp.appSchema });
    expect(strict.status).toBe(400);
  });
});
