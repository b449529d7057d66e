import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { POST as decryptRoute } from '@/app/api/secure-tokens/[id]/decrypt/route';
import { GET as auditRoute } from '@/app/api/secure-tokens/audit/route';
import { DELETE as deleteRoute, GET as listRoute, POST as createRoute } from '@/app/api/secure-tokens/route';
import { getDb } from '@/lib/db/client';
import { masterKeyFilePath, secretsKeyring } from '@/lib/secure-tokens/keyring';
import { rotateSecureTokens } from '@/lib/secure-tokens/rotate';
import { setEnv } from '@/tests/helpers/env';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { captureLogLines } from '@/tests/helpers/log-lines';
import { useRateLimits } from '@/tests/helpers/rate-limits';
import { testDir } from '@/tests/helpers/test-env';

useRateLimits({ SECRETS_DECRYPT_PER_KEY_PER_MINUTE: '1000', SECRETS_DECRYPT_PER_SITE_PER_MINUTE: '1000' });

const b64key = () => randomBytes(32).toString('base64');
const V1 = b64key();
const V2 = b64key();

let mine: Tenant;
let other: Tenant;

const create = (t: Tenant, body: Record<string, unknown>, headers: Record<string, string> = { 'x-api-key': t.key }) =>
  call(createRoute, {
    method: 'POST',
    path: '/api/secure-tokens',
    headers,
    body: { site_id: t.siteId, type: 'api_key', identifier: `id-${randomBytes(4).toString('hex')}`, ...body },
  });
const decrypt = (t: Tenant, id: string, key = t.key, siteId = t.siteId) =>
  call(decryptRoute, {
    method: 'POST',
    path: `/api/secure-tokens/${id}/decrypt`,
    params: { id },
    headers: { 'x-api-key': key },
    body: { site_id: siteId },
  });
const audit = (t: Tenant) => call(auditRoute, { path: '/api/secure-tokens/audit', headers: t.user.auth, query: { site_id: t.siteId, limit: 100 } });

async function row(id: string) {
  const db = await getDb();
  return ((await db.execute(sql`select * from secure_tokens where id = ${id}`)) as unknown as { rows: Record<string, any>[] }).rows[0];
}
async function setColumns(id: string, values: Record<string, unknown>) {
  const db = await getDb();
  for (const [column, value] of Object.entries(values)) {
    await db.execute(sql`update secure_tokens set ${sql.identifier(column)} = ${value} where id = ${id}`);
  }
}
/** Flips one bit of a base64 column (byte `at`, from the end when negative). */
const flip = (b64: string, at: number) => {
  const bytes = Buffer.from(b64, 'base64');
  bytes[at < 0 ? bytes.length + at : at] ^= 0x01;
  return bytes.toString('base64');
};

beforeAll(async () => {
  setEnv({ SECRETS_MASTER_KEY: `v1:${V1}` });
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
});
afterAll(() => {
  setEnv({ SECRETS_MASTER_KEY: undefined });
});
const lines = captureLogLines('debug');

describe('storing, listing, deleting', () => {
  it('stores a secret with a write key or the owner session; answers and lists metadata only', async () => {
    const value = `sk_live_${randomBytes(12).toString('hex')}`;
    const byKey = await create(mine, { value, identifier: 'stripe.live' });
    expect(byKey.status, JSON.stringify(byKey.body)).toBe(201);
    expect(byKey.body.data).toEqual({
      id: expect.any(String),
      site_id: mine.siteId,
      type: 'api_key',
      identifier: 'stripe.live',
      key_version: 1,
      created_at: expect.any(String),
      last_used_at: null,
    });
    const bySession = await create(mine, { value: 'hunter2', type: 'password' }, mine.user.auth);
    expect(bySession.status).toBe(201);

    const stored = await row(byKey.body.data.id);
    expect(JSON.stringify(stored)).not.toContain(value);
    expect(stored).toMatchObject({ site_id: mine.siteId, key_version: 1, key_id: secretsKeyring()!.current.id });

    const list = await call(listRoute, { path: '/api/secure-tokens', headers: mine.user.auth, query: { site_id: mine.siteId } });
    expect(list.status).toBe(200);
    expect(list.body.data.map((t: { identifier: string }) => t.identifier)).toContain('stripe.live');
    expect(JSON.stringify(list.body)).not.toContain(value);
    expect(list.body.meta).toMatchObject({ total: 2, limit: 20, offset: 0, has_more: false });
    for (const item of list.body.data)
      expect(Object.keys(item).sort()).toEqual(['created_at', 'id', 'identifier', 'key_version', 'last_used_at', 'site_id', 'type']);
  });

  it('refuses a second secret with the same identifier (409), an empty value and unknown fields (400)', async () => {
    await create(mine, { value: 'a', identifier: 'dup' });
    const again = await create(mine, { value: 'b', identifier: 'dup' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
    expect((await create(mine, { value: '' })).status).toBe(400);
    expect((await create(mine, { value: 'x', extra: 1 })).status).toBe(400);
    expect((await create(mine, { value: 'x'.repeat(16 * 1024 + 1) })).status).toBe(400);
  });

  it("deletes the site's secret; another site's id or an unknown one is 404", async () => {
    const created = (await create(mine, { value: 'to-delete' })).body.data;
    const foreign = await call(deleteRoute, {
      method: 'DELETE',
      path: '/api/secure-tokens',
      headers: { 'x-api-key': other.key },
      query: { site_id: other.siteId, id: created.id },
    });
    expect(foreign.status).toBe(404);
    const gone = await call(deleteRoute, {
      method: 'DELETE',
      path: '/api/secure-tokens',
      headers: mine.user.auth,
      query: { site_id: mine.siteId, id: created.id },
    });
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ success: true, message: 'Secure token deleted' });
    expect(await row(created.id)).toBeUndefined();
    expect((await decrypt(mine, created.id)).status).toBe(404);
  });
});

describe('decrypt', () => {
  it('returns the value to a write key of the site, records the use, and audits every attempt', async () => {
    const value = `xoxb-${randomBytes(10).toString('hex')}`;
    const { id } = (await create(mine, { value, identifier: 'slack' })).body.data;
    const res = await decrypt(mine, id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ success: true, data: { id, type: 'api_key', identifier: 'slack', value } });
    expect((await row(id)).last_used_at).not.toBeNull();

    // Another site's key, or this key naming this id under its own site: 403 / 404.
    expect((await decrypt(other, id)).status).toBe(404);
    expect((await decrypt(mine, id, mine.readKey)).status).toBe(403);
    expect(
      (
        await decrypt(
          mine,
          randomBytes(16)
            .toString('hex')
            .replace(/(.{8})(.{4})(.{4})(.{4})(.{12})/, '$1-$2-$3-$4-$5'),
        )
      ).status,
    ).toBe(404);

    const entries = (await audit(mine)).body.data as { token_id: string; action: string; outcome: string; api_key_id: string | null }[];
    expect(entries.filter((e) => e.token_id === id).map((e) => [e.action, e.outcome])).toEqual([
      ['decrypt', 'ok'],
      ['create', 'ok'],
    ]);
    // The other site's failed attempt is in the other site's audit, not this one's.
    const theirs = (await audit(other)).body.data as { token_id: string; outcome: string }[];
    expect(theirs).toContainEqual(expect.objectContaining({ token_id: id, outcome: 'not_found' }));
  });

  it('is rate limited per key and per site, stricter than the plan; refusals are audited', async () => {
    setEnv({ SECRETS_DECRYPT_PER_KEY_PER_MINUTE: '3', SECRETS_DECRYPT_PER_SITE_PER_MINUTE: '1000' });
    try {
      const t = await createTenant();
      const { id } = (await create(t, { value: 'limited' })).body.data;
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await decrypt(t, id)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const limited = await decrypt(t, id);
      expect(limited.body.error.code).toBe('RATE_LIMITED');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      const outcomes = ((await audit(t)).body.data as { outcome: string }[]).map((e) => e.outcome);
      expect(outcomes.filter((o) => o === 'rate_limited')).toHaveLength(2);
    } finally {
      setEnv({ SECRETS_DECRYPT_PER_KEY_PER_MINUTE: '1000' });
    }
  });
});

describe('tampering fails closed', () => {
  const cases: [string, (r: Record<string, any>) => Record<string, unknown>][] = [
    ['a bit of the ciphertext', (r) => ({ ciphertext: flip(r.ciphertext, 0) })],
    ['a bit of the tag', (r) => ({ tag: flip(r.tag, -1) })],
    ['a truncated tag', (r) => ({ tag: Buffer.from(r.tag, 'base64').subarray(0, 12).toString('base64') })],
    ['the iv', (r) => ({ iv: flip(r.iv, 3) })],
    ['the wrapped data key', (r) => ({ wrapped_key: flip(r.wrapped_key, 20) })],
    ['the key version (relabelled)', () => ({ key_version: 2 })],
    ['the key id', () => ({ key_id: '0000000000000000' })],
  ];
  for (const [what, change] of cases) {
    it(`changing ${what} refuses to decrypt without echoing anything`, async () => {
      const value = `tamper-${randomBytes(8).toString('hex')}`;
      const { id } = (await create(mine, { value })).body.data;
      const before = await row(id);
      await setColumns(id, change(before));
      const res = await decrypt(mine, id);
      expect([500, 503]).toContain(res.status);
      const text = JSON.stringify(res.body);
      expect(text).not.toContain(value);
      for (const column of ['ciphertext', 'tag', 'iv', 'wrapped_key']) expect(text).not.toContain(before[column]);
      expect(text).not.toContain(V1);
    });
  }

  it('a sealed row copied onto another row of the site, or of another site, does not open', async () => {
    const { id: source } = (await create(mine, { value: 'original-secret' })).body.data;
    const { id: target } = (await create(mine, { value: 'other' })).body.data;
    const { id: foreign } = (await create(other, { value: 'foreign' })).body.data;
    const sealed = await row(source);
    const copy = {
      iv: sealed.iv,
      ciphertext: sealed.ciphertext,
      tag: sealed.tag,
      wrapped_key: sealed.wrapped_key,
      key_id: sealed.key_id,
      key_version: sealed.key_version,
    };
    await setColumns(target, copy);
    await setColumns(foreign, copy);
    expect((await decrypt(mine, target)).status).toBe(500);
    expect((await decrypt(other, foreign)).status).toBe(500);
    // Moving the row itself to another site: the other site's key cannot open it either.
    await setColumns(source, { site_id: other.siteId });
    const moved = await decrypt(other, source);
    expect(moved.status).toBe(500);
    expect(JSON.stringify(moved.body)).not.toContain('original-secret');
    const outcomes = ((await audit(mine)).body.data as { token_id: string; outcome: string }[]).filter((e) => e.token_id === target);
    expect(outcomes[0]).toMatchObject({ outcome: 'integrity_failure' });
  });
});

describe('rotation', () => {
  it('re-wraps every data key to the new version row by row; both versions decrypt meanwhile', async () => {
    const values = Array.from({ length: 5 }, (_, i) => `rotate-${i}-${randomBytes(6).toString('hex')}`);
    const ids: string[] = [];
    for (const value of values) ids.push((await create(mine, { value })).body.data.id);

    // The new version goes first; v1 stays listed for the rows not yet rewrapped.
    setEnv({ SECRETS_MASTER_KEY: `v2:${V2},v1:${V1}` });
    const fresh = (await create(mine, { value: 'made-after' })).body.data;
    expect(fresh.key_version).toBe(2);
    for (const [i, id] of ids.entries()) expect((await decrypt(mine, id)).body.data.value).toBe(values[i]);

    const wrappedBefore = await row(ids[0]);
    const report = await rotateSecureTokens(secretsKeyring()!, { batch: 2 });
    expect(report.rewrapped).toBeGreaterThanOrEqual(ids.length);
    const after = await row(ids[0]);
    expect(after).toMatchObject({
      key_version: 2,
      key_id: secretsKeyring()!.current.id,
      ciphertext: wrappedBefore.ciphertext,
      tag: wrappedBefore.tag,
    });
    expect(after.wrapped_key).not.toBe(wrappedBefore.wrapped_key);

    // v1 removed: everything still opens; a second run has nothing to do.
    setEnv({ SECRETS_MASTER_KEY: `v2:${V2}` });
    for (const [i, id] of ids.entries()) expect((await decrypt(mine, id)).body.data.value).toBe(values[i]);
    expect(await rotateSecureTokens(secretsKeyring()!)).toMatchObject({ rewrapped: 0 });
  });

  it('a row whose master key version is not configured answers 503 and is reported by rotation', async () => {
    setEnv({ SECRETS_MASTER_KEY: `v3:${b64key()},v2:${V2}` });
    const { id } = (await create(mine, { value: 'orphan' })).body.data;
    setEnv({ SECRETS_MASTER_KEY: `v2:${V2}` });
    const res = await decrypt(mine, id);
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('PROVIDER_NOT_CONFIGURED');
    const report = await rotateSecureTokens(secretsKeyring()!);
    expect(report.failed).toContainEqual({ token_id: id, site_id: mine.siteId, reason: 'key_unavailable' });
  });
});

describe('master key configuration', () => {
  afterEach(() => setEnv({ SECRETS_MASTER_KEY: `v1:${V1}`, DATA_DIR: process.env.DATA_DIR }));

  it('without SECRETS_MASTER_KEY the embedded database generates a key file under DATA_DIR, mode 0600', async () => {
    const dir = testDir('sgp-keys-');
    const previous = process.env.DATA_DIR;
    setEnv({ SECRETS_MASTER_KEY: undefined, DATA_DIR: dir });
    try {
      const created = await create(mine, { value: 'with-file-key' });
      expect(created.status).toBe(201);
      const file = masterKeyFilePath();
      expect(file.startsWith(dir)).toBe(true);
      expect(existsSync(file)).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file, 'utf8')).toMatch(/^v1:[A-Za-z0-9+/]{43}=\n$/);
      expect((await decrypt(mine, created.body.data.id)).body.data.value).toBe('with-file-key');
    } finally {
      setEnv({ DATA_DIR: previous });
    }
  });

  it('with DATABASE_URL and no SECRETS_MASTER_KEY the routes answer 503 PROVIDER_NOT_CONFIGURED', async () => {
    // The test database stays in use; only the configuration says "external database".
    setEnv({ SECRETS_MASTER_KEY: undefined, DATABASE_URL: 'postgres://unused@127.0.0.1:1/none' });
    try {
      const res = await create(mine, { value: 'nowhere' });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('PROVIDER_NOT_CONFIGURED');
    } finally {
      setEnv({ DATABASE_URL: undefined });
    }
  });

  it('a malformed SECRETS_MASTER_KEY is refused without quoting it', async () => {
    const bad = `v1:${randomBytes(16).toString('base64')}`;
    setEnv({ SECRETS_MASTER_KEY: bad });
    expect(() => secretsKeyring()).toThrow(/entry 1 \(v1\) is not the base64 of 32 bytes/);
    const res = await create(mine, { value: 'x' });
    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({
      code: 'PROVIDER_NOT_CONFIGURED',
      message: 'SECRETS_MASTER_KEY is invalid: entry 1 (v1) is not the base64 of 32 bytes',
    });
    expect(JSON.stringify(res.body)).not.toContain(bad.slice(3));
  });
});

describe('logs', () => {
  it('no line written carries a secret value, a master key or sealed material', () => {
    const all = lines.join('\n');
    for (const needle of [V1, V2, 'original-secret', 'with-file-key', 'hunter2', 'made-after', 'rotate-0-']) expect(all).not.toContain(needle);
    // The failures were logged, by token id and kind.
    expect(all).toContain('secure token failed its integrity check');
  });
});
