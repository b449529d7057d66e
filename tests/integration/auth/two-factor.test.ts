import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as disableRoute } from '@/app/api/auth/2fa/disable/route';
import { POST as enableRoute } from '@/app/api/auth/2fa/enable/route';
import { POST as recoveryCodesRoute } from '@/app/api/auth/2fa/recovery-codes/route';
import { POST as setupRoute } from '@/app/api/auth/2fa/setup/route';
import { GET as eventsRoute } from '@/app/api/auth/events/route';
import { GET as meRoute } from '@/app/api/auth/me/route';
import { POST as tokenRoute } from '@/app/api/auth/token/route';
import { base32Decode, totpAt } from '@/lib/auth/totp';
import { rows } from '@/lib/db/raw';
import { testClock } from '@/tests/helpers/clock';
import { call, createUser, PASSWORD, type TestUser } from '@/tests/helpers/harness';
import { useRateLimits } from '@/tests/helpers/rate-limits';

/**
 * Two-factor sign-in through the real routes on a real database: set up, turn on with a code,
 * sign in with a code or a recovery code, turn off. Codes are computed from the secret the setup
 * answers, at times the test clock sets (30-second steps).
 */
useRateLimits({ AUTH_RATE_LIMIT_PER_IP: '1000', AUTH_FAILURES_PER_ACCOUNT: '5' });
const useClock = testClock();
const STEP = 30_000;

/** The clock at the start of a step (plus a second), moved on by whole steps. */
function clockAt(start = Math.floor(Date.now() / STEP) * STEP + 1_000) {
  let at = start;
  useClock(at);
  return {
    get now() {
      return at;
    },
    advance(steps = 1) {
      at += steps * STEP;
      useClock(at);
    },
  };
}

const post = (handler: typeof setupRoute, path: string, user: Pick<TestUser, 'auth'>, body?: unknown) =>
  call(handler, { method: 'POST', path, headers: user.auth, body });
const setup = (user: TestUser) => post(setupRoute, '/api/auth/2fa/setup', user);
const enable = (user: TestUser, code: string) => post(enableRoute, '/api/auth/2fa/enable', user, { code });
const disable = (user: TestUser, code: string) => post(disableRoute, '/api/auth/2fa/disable', user, { code });
const me = (user: Pick<TestUser, 'auth'>) => call(meRoute, { path: '/api/auth/me', headers: user.auth });
const token = (email: string, password: string, otp?: string) =>
  call(tokenRoute, {
    method: 'POST',
    path: '/api/auth/token',
    headers: { 'user-agent': 'two-factor-suite/1.0' },
    body: { email, password, ...(otp === undefined ? {} : { otp }) },
  });
const events = async (user: TestUser) => (await call(eventsRoute, { path: '/api/auth/events', headers: user.auth, query: { limit: 100 } })).body.data;

const envelope = (code: string, message: unknown) => ({ success: false, error: { code, message, request_id: expect.any(String) } });

/** A user with two-factor sign-in on: its secret, recovery codes and the clock its codes are made at. */
async function enabledUser() {
  const clock = clockAt();
  const user = await createUser();
  const { secret } = (await setup(user)).body.data as { secret: string };
  const key = base32Decode(secret);
  const codeAt = (at = clock.now) => totpAt(key, at);
  const res = await enable(user, codeAt());
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { user, clock, secret, codeAt, recoveryCodes: res.body.data.recovery_codes as string[] };
}

describe('setting up two-factor sign-in', () => {
  it('answers a secret, its otpauth URI and a QR code; stores the secret sealed; sign-in is unchanged until enabled', async () => {
    clockAt();
    const user = await createUser();
    const res = await setup(user);
    expect(res.status).toBe(200);
    const { secret, otpauth_uri, qr_svg } = res.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_uri).toBe(
      `otpauth://totp/Site%20Growth%20Platform:${encodeURIComponent(user.email)}?secret=${secret}&issuer=Site%20Growth%20Platform&algorithm=SHA1&digits=6&period=30`,
    );
    expect(qr_svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    const [stored] = await rows<{ secret_sealed: string; enabled_at: string | null }>(
      sql`select secret_sealed, enabled_at from user_two_factor where user_id = ${user.id}`,
    );
    expect(stored.enabled_at).toBeNull();
    expect(stored.secret_sealed).toMatch(/^v1\./);
    expect(stored.secret_sealed).not.toContain(secret);
    expect((await me(user)).body.data.two_factor).toBe(false);
    expect((await token(user.email, PASSWORD)).status).toBe(200);
    // Setting up again replaces the pending secret: a code of the first one no longer enables.
    const second = (await setup(user)).body.data.secret;
    expect(second).not.toBe(secret);
    expect((await enable(user, totpAt(base32Decode(secret), Date.now()))).status).toBe(400);
  });

  it('enables with a current code only: wrong and stale codes are refused; the recovery codes are shown once and stored hashed', async () => {
    const clock = clockAt();
    const user = await createUser();
    const key = base32Decode((await setup(user)).body.data.secret);
    expect(await enable(user, '000000').then((r) => r.body)).toEqual(envelope('INVALID_REQUEST', expect.stringContaining('not valid')));
    expect((await enable(user, totpAt(key, clock.now - 2 * STEP))).status).toBe(400);
    expect((await enable(user, totpAt(key, clock.now + 2 * STEP))).status).toBe(400);
    const res = await enable(user, totpAt(key, clock.now - STEP)); // one step of drift is accepted
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const codes: string[] = res.body.data.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const stored = await rows<{ code_hash: string; used_at: string | null }>(
      sql`select code_hash, used_at from user_recovery_codes where user_id = ${user.id}`,
    );
    expect(stored).toHaveLength(10);
    const hashes = stored.map((r) => r.code_hash).join(' ');
    for (const code of codes) expect(hashes).not.toContain(code.replace('-', ''));
    expect((await me(user)).body.data.two_factor).toBe(true);
    expect((await setup(user)).body).toEqual(envelope('CONFLICT', expect.stringContaining('already on')));
    expect((await enable(user, totpAt(key, clock.now))).status).toBe(409);
  });

  it('refuses enable without a setup, and bodies that are not a code', async () => {
    clockAt();
    const user = await createUser();
    expect((await enable(user, '123456')).body).toEqual(envelope('INVALID_REQUEST', expect.stringContaining('Set up')));
    for (const body of [{}, { code: '' }, { code: 123456 }, { code: '123456', extra: 1 }]) {
      const res = await post(enableRoute, '/api/auth/2fa/enable', user, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
    }
  });
});

describe('signing in with two-factor sign-in on', () => {
  it('POST /api/auth/token needs otp: 401 OTP_REQUIRED without it; a wrong password still reads as one', async () => {
    const { user, clock, codeAt } = await enabledUser();
    clock.advance();
    expect((await token(user.email, PASSWORD)).body).toEqual(envelope('OTP_REQUIRED', expect.stringContaining('`otp`')));
    expect((await token(user.email, 'wrong password', codeAt())).body).toEqual(envelope('UNAUTHORIZED', 'Invalid email or password'));
    const res = await token(user.email, PASSWORD, codeAt());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await me({ auth: { authorization: `Bearer ${res.body.data.token}` } })).status).toBe(200);
  });

  it('refuses a replayed code (the step of the enable, or of a sign-in) and a stale one; accepts one step of drift', async () => {
    const { user, clock, codeAt } = await enabledUser();
    // The code that enabled it was spent by the enable.
    expect((await token(user.email, PASSWORD, codeAt())).body).toEqual(envelope('UNAUTHORIZED', 'Invalid two-factor code'));
    clock.advance();
    const code = codeAt();
    expect((await token(user.email, PASSWORD, code)).status).toBe(200);
    expect((await token(user.email, PASSWORD, code)).status).toBe(401);
    // Stale: two steps old.
    clock.advance(3);
    expect((await token(user.email, PASSWORD, codeAt(clock.now - 2 * STEP))).status).toBe(401);
    // A phone a step ahead: its code is accepted, after which the current (earlier) step's code is refused.
    expect((await token(user.email, PASSWORD, codeAt(clock.now + STEP))).status).toBe(200);
    expect((await token(user.email, PASSWORD, codeAt())).status).toBe(401);
    // Spaces as an app shows them are ignored.
    clock.advance(2);
    const spaced = codeAt();
    expect((await token(user.email, PASSWORD, `${spaced.slice(0, 3)} ${spaced.slice(3)}`)).status).toBe(200);
  });

  it('a recovery code works once, in any case and without its dash', async () => {
    const { user, recoveryCodes } = await enabledUser();
    const code = recoveryCodes[3];
    const res = await token(user.email, PASSWORD, code.replace('-', '').toUpperCase());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await token(user.email, PASSWORD, code)).body).toEqual(envelope('UNAUTHORIZED', 'Invalid two-factor code'));
    expect((await token(user.email, PASSWORD, recoveryCodes[4])).status).toBe(200);
    const used = await rows<{ n: number }>(
      sql`select count(*)::int as n from user_recovery_codes where user_id = ${user.id} and used_at is not null`,
    );
    expect(used[0].n).toBe(2);
    const log = await events(user);
    expect(log.filter((e: { kind: string }) => e.kind === 'recovery_code_used').map((e: { detail: unknown }) => e.detail)).toEqual([
      { remaining: 8 },
      { remaining: 9 },
    ]);
  });

  it('wrong codes count toward the account lockout; a missing code does not', async () => {
    const { user, clock, codeAt } = await enabledUser();
    clock.advance();
    for (let i = 0; i < 5; i++) expect((await token(user.email, PASSWORD)).body.error.code).toBe('OTP_REQUIRED');
    for (let i = 0; i < 5; i++) expect((await token(user.email, PASSWORD, i % 2 ? '000000' : 'aaaaa-bbbbb')).status).toBe(401);
    const locked = await token(user.email, PASSWORD, codeAt());
    expect(locked.status).toBe(429);
    expect(locked.body.error).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('for this account') });
  });

  it('wrong codes at enable and disable count too', async () => {
    const { user, clock, codeAt } = await enabledUser();
    clock.advance();
    for (let i = 0; i < 5; i++) expect((await disable(user, '000000')).status).toBe(400);
    expect((await disable(user, codeAt())).status).toBe(429);
    expect((await me(user)).body.data.two_factor).toBe(true);
  });
});

describe('turning two-factor sign-in off, new recovery codes', () => {
  it('disables with a current code; the password alone signs in again; the secret and codes are gone', async () => {
    const { user, clock, codeAt } = await enabledUser();
    expect((await disable(user, codeAt())).status).toBe(400); // the enable's code, spent
    clock.advance();
    const res = await disable(user, codeAt());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ two_factor: false });
    expect((await me(user)).body.data.two_factor).toBe(false);
    expect((await token(user.email, PASSWORD)).status).toBe(200);
    expect(await rows(sql`select user_id from user_two_factor where user_id = ${user.id}`)).toEqual([]);
    expect(await rows(sql`select id from user_recovery_codes where user_id = ${user.id}`)).toEqual([]);
    expect((await disable(user, codeAt())).body).toEqual(envelope('INVALID_REQUEST', expect.stringContaining('not on')));
  });

  it('disables with a recovery code', async () => {
    const { user, recoveryCodes } = await enabledUser();
    expect((await disable(user, recoveryCodes[0])).status).toBe(200);
    expect((await me(user)).body.data.two_factor).toBe(false);
  });

  it('new recovery codes need an authenticator code; the old ones stop working', async () => {
    const { user, clock, codeAt, recoveryCodes } = await enabledUser();
    const regenerate = (code: string) => post(recoveryCodesRoute, '/api/auth/2fa/recovery-codes', user, { code });
    expect((await regenerate(recoveryCodes[0])).status).toBe(400);
    clock.advance();
    const res = await regenerate(codeAt());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const fresh: string[] = res.body.data.recovery_codes;
    expect(fresh).toHaveLength(10);
    expect(fresh.some((c) => recoveryCodes.includes(c))).toBe(false);
    expect((await token(user.email, PASSWORD, recoveryCodes[1])).status).toBe(401);
    expect((await token(user.email, PASSWORD, fresh[0])).status).toBe(200);
  });
});

describe('the account audit log', () => {
  it('records sign-ins, failures and two-factor changes, newest first and paged, with no secret in it', async () => {
    const { user, clock, codeAt, secret, recoveryCodes } = await enabledUser();
    clock.advance();
    await token(user.email, 'wrong password', codeAt());
    await token(user.email, PASSWORD, '000000');
    const code = codeAt();
    await token(user.email, PASSWORD, code);
    clock.advance();
    await disable(user, codeAt());
    const log = await events(user);
    expect(log.map((e: { kind: string }) => e.kind)).toEqual([
      '2fa_disabled',
      'sign_in',
      'sign_in_failed',
      'sign_in_failed',
      '2fa_enabled',
      'sign_in',
    ]);
    expect(log[1]).toMatchObject({ user_id: user.id, site_id: null, user_agent: 'two-factor-suite/1.0', detail: { method: 'totp' } });
    expect(log[2].detail).toEqual({ reason: 'otp' });
    expect(log[3].detail).toEqual({ reason: 'password' });
    expect(log[5].detail).toEqual({ method: 'password' });
    const text = JSON.stringify(log);
    for (const secretText of [PASSWORD, 'wrong password', secret, code, ...recoveryCodes]) expect(text).not.toContain(secretText);

    const page = await call(eventsRoute, { path: '/api/auth/events', headers: user.auth, query: { limit: 2, offset: 2 } });
    expect(page.body.data.map((e: { kind: string }) => e.kind)).toEqual(['sign_in_failed', 'sign_in_failed']);
    expect(page.body.meta).toEqual({ total: 6, limit: 2, offset: 2, has_more: true });
    // Another account sees only its own.
    const other = await createUser();
    expect((await events(other)).map((e: { kind: string }) => e.kind)).toEqual(['sign_in']);
  });
});
