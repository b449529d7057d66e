import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { GET as eventsRoute } from '@/app/api/auth/events/route';
import { GET as meRoute } from '@/app/api/auth/me/route';
import { POST as resetRoute } from '@/app/api/auth/password/reset/route';
import { DELETE as endSessionRoute } from '@/app/api/auth/sessions/[id]/route';
import { DELETE as endOthersRoute, GET as sessionsRoute } from '@/app/api/auth/sessions/route';
import { POST as tokenRoute } from '@/app/api/auth/token/route';
import { rows } from '@/lib/db/raw';
import { issueAccountToken } from '@/lib/users/account-tokens';
import { testClock } from '@/tests/helpers/clock';
import { call, createUser, PASSWORD, type TestUser } from '@/tests/helpers/harness';

/**
 * The account's sessions (console cookies and session tokens alike) with their device and last
 * use, ended one by one or all but the caller's, and what the audit log keeps of it.
 */
const useClock = testClock();
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function signInFrom(user: TestUser, userAgent: string, ip: string): Promise<string> {
  const res = await call(tokenRoute, {
    method: 'POST',
    path: '/api/auth/token',
    headers: { 'user-agent': userAgent, 'x-forwarded-for': ip },
    body: { email: user.email, password: PASSWORD },
  });
  expect(res.status).toBe(200);
  return res.body.data.token;
}

const sessionsOf = async (auth: Record<string, string>) => (await call(sessionsRoute, { path: '/api/auth/sessions', headers: auth })).body.data;
const me = (auth: Record<string, string>) => call(meRoute, { path: '/api/auth/me', headers: auth });
const endSession = (auth: Record<string, string>, id: string) =>
  call(endSessionRoute, { method: 'DELETE', path: `/api/auth/sessions/${id}`, params: { id }, headers: auth });

describe('the account’s sessions', () => {
  it('lists live sessions with their device and marks the current one', async () => {
    const user = await createUser();
    const phone = await signInFrom(user, 'Phone/1.0', '198.51.100.7');
    const list = await sessionsOf(bearer(phone));
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ current: true, user_agent: 'Phone/1.0', ip: '198.51.100.7', last_used_at: expect.any(String) });
    expect(list[1]).toMatchObject({ current: false });
    expect((await sessionsOf(user.auth)).map((s: { current: boolean }) => s.current)).toEqual([false, true]);
    // Another account's sessions are not listed.
    const other = await createUser();
    expect(await sessionsOf(other.auth)).toHaveLength(1);
  });

  it('ending one session refuses its token at once; another account’s session is a 404', async () => {
    const user = await createUser();
    const laptop = await signInFrom(user, 'Laptop/2.0', '198.51.100.8');
    const laptopId = (await sessionsOf(bearer(laptop))).find((s: { current: boolean }) => s.current).id;
    const other = await createUser();
    expect((await endSession(other.auth, laptopId)).body).toEqual({
      success: false,
      error: { code: 'NOT_FOUND', message: 'Session not found', request_id: expect.any(String) },
    });
    expect((await me(bearer(laptop))).status).toBe(200);

    const res = await endSession(user.auth, laptopId);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ revoked: true });
    const refused = await me(bearer(laptop));
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('UNAUTHORIZED');
    expect((await me(user.auth)).status).toBe(200);
    // Ended already, and not a session id at all.
    expect((await endSession(user.auth, laptopId)).status).toBe(404);
    expect((await endSession(user.auth, 'not-a-uuid')).status).toBe(400);
    const [event] = (await call(eventsRoute, { path: '/api/auth/events', headers: user.auth })).body.data;
    expect(event).toMatchObject({ kind: 'session_revoked', detail: { session_id: laptopId } });
  });

  it('ends every other session and keeps the caller’s', async () => {
    const user = await createUser();
    const a = await signInFrom(user, 'A/1', '198.51.100.9');
    const b = await signInFrom(user, 'B/1', '198.51.100.10');
    const res = await call(endOthersRoute, { method: 'DELETE', path: '/api/auth/sessions', headers: bearer(a) });
    expect(res.body.data).toEqual({ revoked: 2 });
    expect((await me(bearer(a))).status).toBe(200);
    expect((await me(bearer(b))).status).toBe(401);
    expect((await me(user.auth)).status).toBe(401);
    expect(await sessionsOf(bearer(a))).toHaveLength(1);
  });

  it('writes the last use at most once a minute', async () => {
    const user = await createUser();
    const start = Date.now() + 10 * 60_000;
    useClock(start);
    const token = await signInFrom(user, 'Clock/1', '198.51.100.11');
    const lastUse = async () =>
      (await rows<{ last_used_at: Date }>(sql`select last_used_at from user_sessions where user_id = ${user.id} and user_agent = 'Clock/1'`))[0]
        .last_used_at;
    const first = new Date(await lastUse()).getTime();
    expect(first).toBe(start);
    useClock(start + 30_000);
    await me(bearer(token));
    expect(new Date(await lastUse()).getTime()).toBe(start);
    useClock(start + 61_000);
    await me(bearer(token));
    expect(new Date(await lastUse()).getTime()).toBe(start + 61_000);
  });

  it('a password reset is in the audit log, and ends every session', async () => {
    const user = await createUser();
    const token = await issueAccountToken('reset_password', user);
    const res = await call(resetRoute, {
      method: 'POST',
      path: '/api/auth/password/reset',
      headers: { 'user-agent': 'Reset/1' },
      body: { token, password: 'a brand new passphrase' },
    });
    expect(res.status).toBe(200);
    const fresh = await call(tokenRoute, {
      method: 'POST',
      path: '/api/auth/token',
      body: { email: user.email, password: 'a brand new passphrase' },
    });
    const auth = bearer(fresh.body.data.token);
    expect(await sessionsOf(auth)).toHaveLength(1);
    const kinds = (await call(eventsRoute, { path: '/api/auth/events', headers: auth })).body.data.map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual(['sign_in', 'password_reset', 'sign_in']);
  });
});
