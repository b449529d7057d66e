import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { POST as sendRoute } from '@/app/api/platform/email/send/route';
import { GET as listLeadsRoute, POST as createLeadsRoute } from '@/app/api/platform/leads/route';
import { GET as meRoute } from '@/app/api/platform/me/route';
import { POST as trackRoute } from '@/app/api/platform/tracking/event/route';
import { POST as verifyRoute } from '@/app/api/sites/[site_id]/email-recipients/[recipient_id]/verify/route';
import { GET as recipientsRoute } from '@/app/api/sites/[site_id]/email-recipients/route';
import { GET as emailsRoute } from '@/app/api/sites/[site_id]/emails/route';
import { GET as listAppsRoute } from '@/app/api/sites/[site_id]/platform-apps/route';
import { GET as auditRoute } from '@/app/api/sites/[site_id]/platform-audit/route';
import { DELETE as revokeKeyRoute } from '@/app/api/sites/[site_id]/platform-keys/[key_id]/route';
import { GET as listKeysRoute, POST as createKeyRoute } from '@/app/api/sites/[site_id]/platform-keys/route';
import { isWellFormedApiKey, isWellFormedPlatformKey } from '@/lib/auth/api-key-format';
import { resetConfig } from '@/lib/core/config';
import { rows } from '@/lib/db/raw';
import { presenters } from '@/tests/helpers/auth-matrix';
import { call, createTenant, ownerCall, uniqueEmail, type Tenant } from '@/tests/helpers/harness';
import { addTestRecipient, createPlatformFixture, createPlatformKey, platformAuth, suitePlatformApps } from '@/tests/helpers/platform';

const { mine, other, app, otherApp } = suitePlatformApps();

afterEach(() => {
  delete process.env.PLATFORM_DAILY_QUOTAS;
  resetConfig();
});

const me = (key: string) => call(meRoute, { path: '/api/platform/me', headers: platformAuth(key) });
const createLeads = (key: string, leads: unknown[]) =>
  call(createLeadsRoute, { method: 'POST', path: '/api/platform/leads', headers: platformAuth(key), body: { leads } });
const audit = (t: Tenant, query: Record<string, string> = {}) => ownerCall(auditRoute, t, 'platform-audit', { query: { limit: '100', ...query } });
const send = (key: string, body: Record<string, unknown>) =>
  call(sendRoute, { method: 'POST', path: '/api/platform/email/send', headers: platformAuth(key), body });
const emails = (t: Tenant) => ownerCall(emailsRoute, t, 'emails', { query: { limit: '100' } });
const createKey = (body: Record<string, unknown>) => ownerCall(createKeyRoute, mine, 'platform-keys', { method: 'POST', body });
const verifyRecipient = (t: Tenant, recipientId: string, code: string) =>
  ownerCall(verifyRoute, t, `email-recipients/${recipientId}/verify`, { method: 'POST', params: { recipient_id: recipientId }, body: { code } });
const withQuotas = (quotas: Record<string, number>) => {
  process.env.PLATFORM_DAILY_QUOTAS = JSON.stringify(quotas);
  resetConfig();
};

describe('platform keys (owner side)', () => {
  it('creates a key shown once, in its own format, stored only as a hash', async () => {
    const res = await createKey({ app_id: app.appId, name: 'shop', capabilities: ['leads.read'] });
    expect(res.status).toBe(201);
    const { platformKey, id, display, capabilities, status } = res.body.data;
    expect(platformKey).toMatch(/^sgp_pk_[0-9A-Za-z]{49}$/);
    expect(isWellFormedPlatformKey(platformKey)).toBe(true);
    expect(isWellFormedApiKey(platformKey)).toBe(false);
    expect(display).toBe(`sgp_pk_…${platformKey.slice(-4)}`);
    expect(capabilities).toEqual(['leads.read']);
    expect(status).toBe('active');
    const [row] = await rows<Record<string, unknown>>(sql`select * from platform_keys where id = ${id}`);
    expect(JSON.stringify(row)).not.toContain(platformKey.slice(7, 30));
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);

    const list = await ownerCall(listKeysRoute, mine, 'platform-keys');
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(platformKey);
    expect(list.body.data.find((k: { id: string }) => k.id === id)).toMatchObject({ id, app_id: app.appId, status: 'active' });
  });

  it('binds keys to an app of the site: another site’s app is 404, unknown capabilities 400', async () => {
    const foreign = await createKey({ app_id: otherApp.appId, name: 'x', capabilities: ['leads.read'] });
    expect(foreign.status).toBe(404);
    const bad = await createKey({ app_id: app.appId, name: 'x', capabilities: ['read'] });
    expect(bad.status).toBe(400);
    const apps = await ownerCall(listAppsRoute, mine, 'platform-apps');
    expect(apps.body.data).toEqual([expect.objectContaining({ id: app.appId, schema: app.appSchema })]);
    expect(app.appSchema).toMatch(/^app_[a-z2-7]{16}$/);
  });

  it('revokes a key: its next call is 401, and revoking another site’s key is 404', async () => {
    const key = await createPlatformKey(mine, app.appId, ['leads.read']);
    expect((await me(key.platformKey)).status).toBe(200);
    const revoke = (t: Tenant, keyId: string) =>
      ownerCall(revokeKeyRoute, t, `platform-keys/${keyId}`, { method: 'DELETE', params: { key_id: keyId } });
    expect((await revoke(other, key.id)).status).toBe(404);
    const res = await revoke(mine, key.id);
    expect(res.body).toEqual({ success: true, message: 'Platform key revoked' });
    const after = await me(key.platformKey);
    expect(after.status).toBe(401);
    expect(after.body.error.message).toMatch(/revoked/);
  });
});

describe('GET /api/platform/me', () => {
  it('answers the key, site, app, capabilities, schema status and quotas', async () => {
    const res = await me(app.key);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      key: { id: app.keyId, capabilities: expect.arrayContaining(['leads.read', 'db.migrate']) },
      site: { id: mine.siteId, name: 'Test site' },
      app: { id: app.appId },
      schema: { name: app.appSchema, exists: false },
    });
    expect(res.body.data.quotas).toContainEqual(expect.objectContaining({ capability: 'email.send', limit: 1000, used: 0 }));
  });

  it("a schema the migration engine did not create for this site is not reported as the app's", async () => {
    // The schema becomes the app's with its first applied migration (tests/integration/platform/migrations.test.ts).
    await rows(sql`create schema ${sql.identifier(otherApp.appSchema)}`);
    try {
      expect((await me(otherApp.key)).body.data.schema).toEqual({ name: otherApp.appSchema, exists: false, applied: 0 });
    } finally {
      await rows(sql`drop schema ${sql.identifier(otherApp.appSchema)}`);
    }
  });

  it('refuses API keys (401) and a body or query naming another site (403)', async () => {
    for (const present of Object.values(presenters))
      expect((await call(meRoute, { path: '/api/platform/me', headers: present(mine.key) })).status).toBe(401);
    const foreign = await call(listLeadsRoute, { path: '/api/platform/leads', headers: platformAuth(app.key), query: { site_id: other.siteId } });
    expect(foreign.status).toBe(403);
  });
});

describe('leads', () => {
  it('creates a batch with a result per item; refused items do not stop the others', async () => {
    const taken = uniqueEmail();
    expect((await createLeads(app.key, [{ name: 'First', email: taken }])).body.data.created).toBe(1);
    const fresh = uniqueEmail();
    const res = await createLeads(app.key, [
      { name: 'Ada', email: fresh, company: 'Acme' },
      { name: 'Dup', email: taken },
      { name: 'Segment', email: uniqueEmail(), segment_id: '00000000-0000-4000-8000-000000000000' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      created: 1,
      failed: 2,
      results: [
        { index: 0, success: true, lead: { email: fresh, company: 'Acme' } },
        { index: 1, success: false, error: { code: 'CONFLICT' } },
        { index: 2, success: false, error: { code: 'NOT_FOUND' } },
      ],
    });
    const [{ n }] = await rows<{ n: number }>(sql`select count(*)::int as n from leads where site_id = ${mine.siteId} and email = ${fresh}`);
    expect(n).toBe(1);
  });

  it('refuses an invalid batch as a whole (400, nothing created)', async () => {
    const email = uniqueEmail();
    const res = await createLeads(app.key, [{ name: 'Ok', email }, { name: 'No email' }]);
    expect(res.status).toBe(400);
    const [{ n }] = await rows<{ n: number }>(sql`select count(*)::int as n from leads where email = ${email}`);
    expect(n).toBe(0);
  });

  it("lists the key's site's leads only, page by page", async () => {
    const email = uniqueEmail();
    await createLeads(otherApp.key, [{ name: 'Foreign', email }]);
    await createLeads(
      app.key,
      [1, 2, 3].map((i) => ({ name: `Lead ${i}`, email: uniqueEmail() })),
    );
    const res = await call(listLeadsRoute, { path: '/api/platform/leads', headers: platformAuth(app.key), query: { limit: '2' } });
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBe(2);
    expect(res.body.meta).toMatchObject({ limit: 2, offset: 0, has_more: true });
    const all = await call(listLeadsRoute, { path: '/api/platform/leads', headers: platformAuth(app.key), query: { limit: '100' } });
    expect(all.body.data.map((l: { email: string }) => l.email)).not.toContain(email);
  });
});

describe('POST /api/platform/tracking/event', () => {
  it("records an event in a session of the key's site; another site's session is 404", async () => {
    const session = await call((await import('@/app/api/visitors/session/route')).POST, {
      method: 'POST',
      path: '/api/visitors/session',
      headers: presenters.xSaApiKey(mine.key),
      body: { site_id: mine.siteId },
    });
    const sessionId = session.body.data.session_id;
    const res = await call(trackRoute, {
      method: 'POST',
      path: '/api/platform/tracking/event',
      headers: platformAuth(app.key),
      body: { session_id: sessionId, event_type: 'custom', event_name: 'checkout_started', properties: { cart: 3 } },
    });
    expect(res.status).toBe(201);
    const [event] = await rows<{ event_name: string; site_id: string }>(
      sql`select event_name, site_id from session_events where id = ${res.body.data.event_id}`,
    );
    expect(event).toEqual({ event_name: 'checkout_started', site_id: mine.siteId });

    const foreign = await call(trackRoute, {
      method: 'POST',
      path: '/api/platform/tracking/event',
      headers: platformAuth(otherApp.key),
      body: { session_id: sessionId, event_type: 'custom' },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('session_not_found');
    // The refused event gave its quota unit back.
    const quotas = (await me(otherApp.key)).body.data.quotas;
    expect(quotas.find((q: { capability: string }) => q.capability === 'tracking.event.write').used).toBe(0);
  });
});

describe('daily quotas', () => {
  it('refuses a batch that does not fit, all or nothing, with Retry-After', async () => {
    const t = await createTenant();
    const fx = await createPlatformFixture(t);
    withQuotas({ 'leads.write': 5 });
    expect(
      (
        await createLeads(
          fx.key,
          [1, 2, 3].map(() => ({ name: 'A', email: uniqueEmail() })),
        )
      ).body.data.created,
    ).toBe(3);
    const over = await createLeads(
      fx.key,
      [1, 2, 3].map(() => ({ name: 'B', email: uniqueEmail() })),
    );
    expect(over.status).toBe(429);
    expect(over.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { capability: 'leads.write', limit: 5, requested: 3 } });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    const [{ n }] = await rows<{ n: number }>(sql`select count(*)::int as n from leads where site_id = ${t.siteId}`);
    expect(n).toBe(3);
    // Refused items give their units back: a duplicate costs nothing.
    const dup = await rows<{ email: string }>(sql`select email from leads where site_id = ${t.siteId} limit 1`);
    expect(
      (
        await createLeads(fx.key, [
          { name: 'Dup', email: dup[0].email },
          { name: 'C', email: uniqueEmail() },
        ])
      ).body.data.created,
    ).toBe(1);
    expect((await me(fx.key)).body.data.quotas.find((q: { capability: string }) => q.capability === 'leads.write').used).toBe(4);
  });

  it('never lets concurrent calls go over the limit together', async () => {
    const t = await createTenant();
    const fx = await createPlatformFixture(t);
    withQuotas({ 'leads.read': 7 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call(listLeadsRoute, { path: '/api/platform/leads', headers: platformAuth(fx.key) })),
    );
    expect(answers.filter((a) => a.status === 200).length).toBe(7);
    expect(answers.filter((a) => a.status === 429).length).toBe(13);
    const [{ used }] = await rows<{ used: number }>(
      sql`select used from platform_quota_usage where site_id = ${t.siteId} and capability = 'leads.read'`,
    );
    expect(used).toBe(7);
  });

  it('counts per app: another app of the same site has its own quota', async () => {
    const t = await createTenant();
    const [a, b] = await Promise.all([createPlatformFixture(t), createPlatformFixture(t)]);
    withQuotas({ 'leads.read': 1 });
    const list = (key: string) => call(listLeadsRoute, { path: '/api/platform/leads', headers: platformAuth(key) });
    expect((await list(a.key)).status).toBe(200);
    expect((await list(a.key)).status).toBe(429);
    expect((await list(b.key)).status).toBe(200);
  });
});

describe('audit log', () => {
  it('records every call of a recognised key, refused ones included, for the owner only', async () => {
    const t = await createTenant();
    const fx = await createPlatformFixture(t);
    withQuotas({ 'leads.read': 1 });
    const readOnly = await createPlatformKey(t, fx.appId, ['leads.read']);
    await me(fx.key); // 200
    await call(listLeadsRoute, { path: '/api/platform/leads', headers: platformAuth(readOnly.platformKey) }); // 200
    await call(listLeadsRoute, { path: '/api/platform/leads', headers: platformAuth(readOnly.platformKey) }); // 429 quota
    await createLeads(readOnly.platformKey, [{ name: 'A', email: uniqueEmail() }]); // 403 capability
    await createLeads(fx.key, []); // 400
    await me(fx.revokedKey); // 401 revoked
    await me(fx.expiredKey); // 401 expired

    const res = await audit(t);
    expect(res.status).toBe(200);
    const entries = res.body.data.map((e: Record<string, unknown>) => [e.method, e.route, e.capability, e.status, e.error_code]);
    expect(entries.reverse()).toEqual([
      ['GET', '/api/platform/me', null, 200, null],
      ['GET', '/api/platform/leads', 'leads.read', 200, null],
      ['GET', '/api/platform/leads', 'leads.read', 429, 'RATE_LIMITED'],
      ['POST', '/api/platform/leads', 'leads.write', 403, 'FORBIDDEN'],
      ['POST', '/api/platform/leads', 'leads.write', 400, 'INVALID_REQUEST'],
      ['GET', '/api/platform/me', null, 401, 'UNAUTHORIZED'],
      ['GET', '/api/platform/me', null, 401, 'UNAUTHORIZED'],
    ]);
    expect(res.body.meta).toMatchObject({ total: 7 });
    expect(res.body.data[0]).toMatchObject({ app_id: fx.appId, request_id: expect.any(String) });
    // Another owner sees none of it, and cannot ask.
    expect((await audit(other)).body.data.every((e: { app_id: string }) => e.app_id !== fx.appId)).toBe(true);
    const foreign = await ownerCall(auditRoute, t, 'platform-audit', { headers: other.user.auth });
    expect(foreign.status).toBe(403);
    const foreignApp = await audit(t, { app_id: otherApp.appId });
    expect(foreignApp.status).toBe(404);
  });
});

describe('email through the embedded outbox', () => {
  it('keeps the message in the site outbox (nothing leaves the machine)', async () => {
    const to = uniqueEmail();
    const res = await send(app.key, { to: [to], subject: 'Welcome', text: 'Hello there', html: '<p>Hello there</p>' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ transport: 'outbox', status: 'stored', to: [to] });
    const log = await emails(mine);
    expect(log.body.data[0]).toMatchObject({
      id: res.body.data.id,
      app_id: app.appId,
      subject: 'Welcome',
      text: 'Hello there',
      html: '<p>Hello there</p>',
      to: [to],
    });
    expect((await emails(other)).body.data.map((m: { id: string }) => m.id)).not.toContain(res.body.data.id);
  });

  it('refuses a line break in the subject and a body-less message (400)', async () => {
    expect((await send(app.key, { to: [uniqueEmail()], subject: 'Hi\r\nBcc: x@example.com', text: 'x' })).status).toBe(400);
    expect((await send(app.key, { to: [uniqueEmail()], subject: 'Hi' })).status).toBe(400);
  });

  it("lets a test-only key send only to the owner's verified addresses", async () => {
    const t = await createTenant();
    const fx = await createPlatformFixture(t);
    const testOnly = (await createPlatformKey(t, fx.appId, ['email.send.test-only'])).platformKey;
    const address = uniqueEmail();
    const refused = await send(testOnly, { to: [address], subject: 'Test', text: 'x' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.details).toEqual({ not_verified: [address] });

    // The owner adds the address; the code arrives through the email port (here: the outbox).
    const added = await addTestRecipient(t, address.toUpperCase());
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ email: address, verified: false });
    const again = await addTestRecipient(t, address);
    expect(again.status).toBe(429);
    const mail = (await emails(t)).body.data[0];
    expect(mail).toMatchObject({ app_id: null, to: [address] });
    const code = /([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(mail.text)![1];

    const verify = (c: string, tenant = t) => verifyRecipient(tenant, added.body.data.id, c);
    const wrong = await verify('AAAA-AAAA');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details).toEqual({ attempts_left: 4 });
    // Another owner naming this address under their own site: not found there.
    expect((await verify(code, other)).status).toBe(404);
    const ok = await verify(code.toLowerCase().replace('-', ' '));
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ verified: true });

    const sent = await send(testOnly, { to: [address], subject: 'Test', text: 'Only to me' });
    expect(sent.status).toBe(201);
    const mixed = await send(testOnly, { to: [address, uniqueEmail()], subject: 'Test', text: 'x' });
    expect(mixed.status).toBe(403);
    const list = await ownerCall(recipientsRoute, t, 'email-recipients');
    expect(list.body.data).toEqual([expect.objectContaining({ email: address, verified: true })]);
    // Test sends count against the test-only quota, per recipient.
    const quotas = (await me(testOnly)).body.data.quotas;
    expect(quotas).toEqual([expect.objectContaining({ capability: 'email.send.test-only', used: 1, limit: 100 })]);
  });

  it('stops accepting codes after 5 wrong ones', async () => {
    const t = await createTenant();
    const added = await addTestRecipient(t, uniqueEmail());
    const mail = (await emails(t)).body.data[0];
    const code = /([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(mail.text)![1];
    const verify = (c: string) => verifyRecipient(t, added.body.data.id, c);
    for (let i = 0; i < 5; i++) expect((await verify('ZZZZ-ZZZZ')).status).toBe(400);
    const late = await verify(code);
    expect(late.status).toBe(400);
    expect(late.body.error.message).toMatch(/Too many/);
  });
});
