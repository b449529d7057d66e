import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { GET as meRoute } from '@/app/api/auth/me/route';
import { POST as forgotRoute } from '@/app/api/auth/password/forgot/route';
import { POST as resetRoute } from '@/app/api/auth/password/reset/route';
import { POST as signupRoute } from '@/app/api/auth/signup/route';
import { DELETE as signOutRoute, POST as tokenRoute } from '@/app/api/auth/token/route';
import { POST as resendRoute } from '@/app/api/auth/verify-email/resend/route';
import { POST as verifyRoute } from '@/app/api/auth/verify-email/route';
import { GET as listSitesRoute } from '@/app/api/visitors/sites/route';
import { generateApiKey } from '@/lib/auth/api-key-format';
import { now } from '@/lib/core/clock';
import { resetConfig } from '@/lib/core/config';
import { rows } from '@/lib/db/raw';
import { pruneExpiredRows } from '@/lib/worker/retention';
import { testClock } from '@/tests/helpers/clock';
import { call, createUser, newSessionToken, PASSWORD, uniqueEmail, type TestUser } from '@/tests/helpers/harness';
import { useSmtpStandIn } from '@/tests/helpers/smtp-for-tests';
import type { ReceivedMail } from '@/tests/helpers/smtp-standin';

/**
 * Verification and password reset by mail, through the real routes on a real database, with the
 * mail captured by a real SMTP server on 127.0.0.1: what a person receives is what they click.
 */
const smtp = useSmtpStandIn({ EMAIL_FROM: 'Site Growth <accounts@growth.example.com>' });
const useClock = testClock();
const NEW_PASSWORD = 'a brand new passphrase';

const post = (handler: typeof signupRoute, path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(handler, { method: 'POST', path, body, headers });
const signUp = (email: string, password = PASSWORD) => post(signupRoute, '/api/auth/signup', { email, password });
const forgot = (email: string) => post(forgotRoute, '/api/auth/password/forgot', { email });
const reset = (token: string, password = NEW_PASSWORD) => post(resetRoute, '/api/auth/password/reset', { token, password });
const verify = (token: string) => post(verifyRoute, '/api/auth/verify-email', { token });
const me = (token: string) => call(meRoute, { path: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
const signIn = (email: string, password: string) => post(tokenRoute, '/api/auth/token', { email, password });

/** The mails the SMTP server received for `address` since `seen`. */
const mailsTo = (address: string, seen = 0): ReceivedMail[] => smtp.received.slice(seen).filter((m) => m.envelope.to.includes(address));

/** The one mail `address` received since `seen`, and the link of `page` in it with its token. */
function linkIn(address: string, seen: number, page: 'verify-email' | 'reset-password') {
  const mails = mailsTo(address, seen);
  expect(mails, `mails to ${address}`).toHaveLength(1);
  const text = mails[0].parsed.text ?? '';
  const match = new RegExp(`(\\S+)/${page}\\?token=(\\S+)`).exec(text);
  expect(match, text).not.toBeNull();
  return { mail: mails[0], origin: match![1], token: decodeURIComponent(match![2]) };
}

const invalidLink = (res: { status: number; body: unknown }) => {
  expect(res.status).toBe(400);
  expect(res.body).toEqual({
    success: false,
    error: { code: 'INVALID_REQUEST', message: expect.stringContaining('invalid, was already used or has expired'), request_id: expect.any(String) },
  });
};

async function signedUp(): Promise<TestUser & { seen: number }> {
  const seen = smtp.received.length;
  const user = await createUser();
  return { ...user, seen };
}

describe('address verification', () => {
  it('sign-up mails a verification link; the link verifies the address once', async () => {
    const user = await signedUp();
    const { mail, origin, token } = linkIn(user.email, user.seen, 'verify-email');
    expect(mail.envelope.from).toBe('accounts@growth.example.com');
    expect(mail.parsed.subject).toBe('Verify your email address');
    // Without NEXTAUTH_URL, the link points where the request arrived.
    expect(origin).toBe('http://localhost:3000');
    expect((await me(user.token)).body.data).toEqual({ id: user.id, email: user.email, name: null, email_verified: false, two_factor: false });

    const verified = await verify(token);
    expect(verified.status).toBe(200);
    expect(verified.body.data).toMatchObject({ id: user.id, email_verified: true });
    expect((await me(user.token)).body.data.email_verified).toBe(true);
    invalidLink(await verify(token));
  });

  it('keeps only the hash of a token, never the token', async () => {
    const user = await signedUp();
    const { token } = linkIn(user.email, user.seen, 'verify-email');
    const stored = await rows<Record<string, unknown>>(sql`select * from account_tokens where user_id = ${user.id}`);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ purpose: 'verify_email', token_hash: createHash('sha256').update(token).digest('hex'), used_at: null });
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('refuses a verification link after 7 days', async () => {
    const user = await signedUp();
    const { token } = linkIn(user.email, user.seen, 'verify-email');
    useClock(now() + 7 * 24 * 3_600_000 + 60_000);
    invalidLink(await verify(token));
    expect((await me(user.token)).body.data.email_verified).toBe(false);
  });

  it.each([
    ['a made-up string', 'not-a-token'],
    ['a well-formed token nobody was sent', generateApiKey('verify')],
    ['an API-key-shaped token', generateApiKey('key')],
  ])('refuses %s', async (_name, token) => {
    invalidLink(await verify(token));
  });

  it('refuses a reset token as a verification token', async () => {
    const user = await signedUp();
    const seen = smtp.received.length;
    await forgot(user.email);
    invalidLink(await verify(linkIn(user.email, seen, 'reset-password').token));
  });

  it('resend mails a new link to the signed-in account; none once verified', async () => {
    const user = await signedUp();
    const seen = smtp.received.length;
    const res = await call(resendRoute, { method: 'POST', path: '/api/auth/verify-email/resend', headers: user.auth });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ email: user.email, email_verified: false, sent: true });
    const { token } = linkIn(user.email, seen, 'verify-email');
    expect((await verify(token)).status).toBe(200);
    const after = smtp.received.length;
    const again = await call(resendRoute, { method: 'POST', path: '/api/auth/verify-email/resend', headers: user.auth });
    expect(again.body.data).toMatchObject({ email_verified: true, sent: false });
    expect(mailsTo(user.email, after)).toEqual([]);
  });

  describe('with NEXTAUTH_URL', () => {
    afterEach(() => {
      delete process.env.NEXTAUTH_URL;
      resetConfig();
    });
    it('links point at the configured public origin, whatever host the request named', async () => {
      process.env.NEXTAUTH_URL = 'http://growth.example.com:8080/console';
      resetConfig();
      const email = uniqueEmail();
      const seen = smtp.received.length;
      await call(signupRoute, {
        method: 'POST',
        path: '/api/auth/signup',
        headers: { host: 'evil.example.net' },
        body: { email, password: PASSWORD },
      });
      expect(linkIn(email, seen, 'verify-email').origin).toBe('http://growth.example.com:8080');
    });
  });
});

describe('password reset', () => {
  it('answers a known and an unknown address alike, and mails only the known one', async () => {
    const user = await signedUp();
    const unknown = uniqueEmail();
    const seen = smtp.received.length;
    const known = await forgot(user.email);
    const other = await forgot(unknown);
    expect(known.status).toBe(202);
    expect(other.status).toBe(202);
    expect({ ...other.body, data: { ...other.body.data, email: '' } }).toEqual({ ...known.body, data: { ...known.body.data, email: '' } });
    expect(mailsTo(unknown, seen)).toEqual([]);
    const { mail } = linkIn(user.email, seen, 'reset-password');
    expect(mail.parsed.subject).toBe('Reset your password');
  });

  it('sets the new password; the old one and every session issued before stop working', async () => {
    const user = await signedUp();
    const second = await newSessionToken(user);
    const seen = smtp.received.length;
    await forgot(user.email);
    await forgot(user.email);
    const [first, latest] = mailsTo(user.email, seen).map((m) => /reset-password\?token=(\S+)/.exec(m.parsed.text ?? '')![1]);

    const res = await reset(latest);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { password_reset: true } });

    for (const token of [user.token, second]) {
      const refused = await me(token);
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('UNAUTHORIZED');
      expect((await call(listSitesRoute, { path: '/api/visitors/sites', headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    }
    expect((await signIn(user.email, PASSWORD)).status).toBe(401);
    const fresh = await signIn(user.email, NEW_PASSWORD);
    expect(fresh.status).toBe(200);
    expect((await me(fresh.body.data.token)).body.data).toMatchObject({ id: user.id, email_verified: true });

    // The link works once; the other link mailed before is spent with it.
    invalidLink(await reset(latest, 'yet another passphrase'));
    invalidLink(await reset(decodeURIComponent(first), 'yet another passphrase'));
    expect((await signIn(user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses a reset link after an hour; the password stays', async () => {
    const user = await signedUp();
    const seen = smtp.received.length;
    await forgot(user.email);
    const { token } = linkIn(user.email, seen, 'reset-password');
    useClock(now() + 3_600_000 + 1_000);
    invalidLink(await reset(token));
    expect((await signIn(user.email, PASSWORD)).status).toBe(200);
  });

  it.each([
    ['a made-up string', 'reset_nothing'],
    ['a well-formed token nobody was sent', generateApiKey('reset')],
  ])('refuses %s', async (_name, token) => {
    invalidLink(await reset(token));
  });

  it('refuses a verification token as a reset token', async () => {
    const user = await signedUp();
    invalidLink(await reset(linkIn(user.email, user.seen, 'verify-email').token));
    expect((await signIn(user.email, PASSWORD)).status).toBe(200);
  });
});

describe('sign-up of an address that has an account', () => {
  it('answers as a fresh sign-up and mails the owner a notice with a reset link that works', async () => {
    const user = await signedUp();
    const fresh = await signUp(uniqueEmail());
    const seen = smtp.received.length;
    const again = await signUp(user.email, 'an attacker password');
    expect(again.status).toBe(fresh.status);
    expect(again.body.data.message).toBe(fresh.body.data.message);
    const { mail, token } = linkIn(user.email, seen, 'reset-password');
    expect(mail.parsed.subject).toBe('Someone tried to sign up with your email address');
    expect((await signIn(user.email, 'an attacker password')).status).toBe(401);
    expect((await reset(token)).status).toBe(200);
    expect((await signIn(user.email, NEW_PASSWORD)).status).toBe(200);
  });
});

describe('sign-out', () => {
  it('DELETE /api/auth/token ends that session on the server; the account’s other sessions stay', async () => {
    const user = await createUser();
    const other = await newSessionToken(user);
    const res = await call(signOutRoute, { method: 'DELETE', path: '/api/auth/token', headers: user.auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { signed_out: true } });
    expect((await me(user.token)).status).toBe(401);
    expect((await call(signOutRoute, { method: 'DELETE', path: '/api/auth/token', headers: user.auth })).status).toBe(401);
    expect((await me(other)).status).toBe(200);
  });

  it('a signed-out console cookie is refused', async () => {
    const user = await createUser();
    const cookie = { cookie: `next-auth.session-token=${user.token}` };
    expect((await call(meRoute, { path: '/api/auth/me', headers: cookie })).status).toBe(200);
    expect((await call(signOutRoute, { method: 'DELETE', path: '/api/auth/token', headers: cookie })).status).toBe(200);
    expect((await call(meRoute, { path: '/api/auth/me', headers: cookie })).status).toBe(401);
  });
});

describe('bad input never reaches the handlers', () => {
  it.each([
    [forgotRoute, '/api/auth/password/forgot', { email: 'not-an-email' }],
    [forgotRoute, '/api/auth/password/forgot', { email: uniqueEmail(), site_id: '00000000-0000-4000-8000-000000000000' }],
    [resetRoute, '/api/auth/password/reset', { token: generateApiKey('reset'), password: 'short' }],
    [resetRoute, '/api/auth/password/reset', { token: '', password: NEW_PASSWORD }],
    [resetRoute, '/api/auth/password/reset', { password: NEW_PASSWORD }],
    [verifyRoute, '/api/auth/verify-email', { token: 'x'.repeat(500) }],
    [verifyRoute, '/api/auth/verify-email', { token: generateApiKey('verify'), user_id: '00000000-0000-4000-8000-000000000000' }],
  ])('%#: 400 INVALID_REQUEST in the envelope', async (handler, path, body) => {
    const res = await post(handler, path, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'INVALID_REQUEST', message: expect.any(String) } });
  });
});

describe('retention', () => {
  it('deletes sessions and mailed tokens a day after they expired, and nothing younger', async () => {
    const user = await signedUp();
    const at = now() + 7 * 24 * 3_600_000 + 2 * 24 * 3_600_000; // the session (7 days) and the link (7 days) expired 2 days ago
    const before = await rows<{ n: number }>(sql`select count(*)::int as n from user_sessions where user_id = ${user.id}`);
    expect(before[0].n).toBe(1);
    const deleted = await pruneExpiredRows(new Date(now()));
    expect(await rows(sql`select id from user_sessions where user_id = ${user.id}`)).toHaveLength(1);
    expect(deleted).toMatchObject({ user_sessions: expect.any(Number), account_tokens: expect.any(Number) });
    await pruneExpiredRows(new Date(at));
    expect(await rows(sql`select id from user_sessions where user_id = ${user.id}`)).toEqual([]);
    expect(await rows(sql`select id from account_tokens where user_id = ${user.id}`)).toEqual([]);
  });
});
