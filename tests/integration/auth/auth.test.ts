import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { POST as signup } from '@/app/api/auth/signup/route';
import { POST as token } from '@/app/api/auth/token/route';
import { GET as listSites } from '@/app/api/visitors/sites/route';
import { resetConfig } from '@/lib/core/config';
import { rows } from '@/lib/db/raw';
import { call, PASSWORD, uniqueEmail } from '@/tests/helpers/harness';

const post = (handler: typeof signup, path: string, body: unknown) => call(handler, { method: 'POST', path, body });

describe('POST /api/auth/signup', () => {
  afterEach(() => {
    delete process.env.OPEN_SIGNUP;
    resetConfig();
  });

  it('creates a user with a scrypt hash, never the password', async () => {
    const email = uniqueEmail();
    const res = await post(signup, '/api/auth/signup', { email: email.toUpperCase(), password: PASSWORD, name: 'Ada' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ success: true, data: { email, message: expect.stringContaining('Check your inbox') } });
    const [row] = await rows<{ password_hash: string; name: string }>(sql`select password_hash, name from users where email = ${email}`);
    expect(row.name).toBe('Ada');
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(row.password_hash).not.toContain(PASSWORD);
  });

  it('answers an email already registered (any case) as a new one, and changes nothing', async () => {
    const email = uniqueEmail();
    const first = await post(signup, '/api/auth/signup', { email, password: PASSWORD });
    const again = await post(signup, '/api/auth/signup', { email: email.toUpperCase(), password: 'another password!', name: 'Mallory' });
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    const users = await rows<{ name: string | null }>(sql`select name from users where lower(email) = ${email}`);
    expect(users).toEqual([{ name: null }]);
    expect((await post(token, '/api/auth/token', { email, password: PASSWORD })).status).toBe(200);
    expect((await post(token, '/api/auth/token', { email, password: 'another password!' })).status).toBe(401);
  });

  it.each([
    [{ email: 'not-an-email', password: PASSWORD }],
    [{ email: 'a@example.com', password: 'short' }],
    [{ email: 'a@example.com', password: '123456789' }],
    [{ password: PASSWORD }],
    [{ email: 'a@example.com', password: PASSWORD, admin: true }],
  ])('refuses %j with 400 INVALID_REQUEST', async (body) => {
    const res = await post(signup, '/api/auth/signup', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
  });

  it('with OPEN_SIGNUP=false, refuses new accounts once one exists', async () => {
    process.env.OPEN_SIGNUP = 'false';
    resetConfig();
    const res = await post(signup, '/api/auth/signup', { email: uniqueEmail(), password: PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });
});

describe('POST /api/auth/token', () => {
  it('returns a session token that authenticates session routes', async () => {
    const email = uniqueEmail();
    await post(signup, '/api/auth/signup', { email, password: PASSWORD });
    const res = await post(token, '/api/auth/token', { email, password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ token: expect.any(String), expires_at: expect.any(String) });
    expect(new Date(res.body.data.expires_at).getTime()).toBeGreaterThan(Date.now());
    const sites = await call(listSites, { path: '/api/visitors/sites', headers: { authorization: `Bearer ${res.body.data.token}` } });
    expect(sites.status).toBe(200);
    expect(sites.body.data).toEqual([]);
  });

  it('answers 401 with the same message for an unknown email and a wrong password', async () => {
    const email = uniqueEmail();
    await post(signup, '/api/auth/signup', { email, password: PASSWORD });
    const wrong = await post(token, '/api/auth/token', { email, password: 'wrong password!' });
    const unknown = await post(token, '/api/auth/token', { email: uniqueEmail(), password: PASSWORD });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(unknown.body.error.message).toBe(wrong.body.error.message);
  });

  it('a tampered token is refused', async () => {
    const email = uniqueEmail();
    await post(signup, '/api/auth/signup', { email, password: PASSWORD });
    const { body } = await post(token, '/api/auth/token', { email, password: PASSWORD });
    const t: string = body.data.token;
    const tampered = t.slice(0, -3) + (t.endsWith('aaa') ? 'bbb' : 'aaa');
    const res = await call(listSites, { path: '/api/visitors/sites', headers: { authorization: `Bearer ${tampered}` } });
    expect(res.status).toBe(401);
  });
});
