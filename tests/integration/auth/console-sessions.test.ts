import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { POST as enableRoute } from '@/app/api/auth/2fa/enable/route';
import { POST as setupRoute } from '@/app/api/auth/2fa/setup/route';
import { GET as eventsRoute } from '@/app/api/auth/events/route';
import { GET as meRoute } from '@/app/api/auth/me/route';
import { POST as forgotRoute } from '@/app/api/auth/password/forgot/route';
import { POST as resetRoute } from '@/app/api/auth/password/reset/route';
import { base32Decode, totpAt } from '@/lib/auth/totp';
import { accountOutboxDir } from '@/lib/users/account-outbox';
import { call, createUser, PASSWORD } from '@/tests/helpers/harness';
import { captureLogLines } from '@/tests/helpers/log-lines';
import { callNextAuth, type NextAuthAnswer } from '@/tests/helpers/next-auth-call';

/**
 * The console's sessions through next-auth's own endpoints (its request handler with our
 * options: CSRF, the credentials callback, the session read, sign-out), and account mail on the
 * embedded default (no SMTP_URL): kept in the account outbox, named by the server log.
 */
type Answer = NextAuthAnswer;

const nextAuth = (method: 'GET' | 'POST', action: string[], cookies: Record<string, string>, body: Record<string, string> = {}) =>
  callNextAuth(method, action, cookies, { body });

/** The cookies an answer sets, by name. */
function setCookies(answer: Answer): Record<string, string> {
  const header = answer.headers['set-cookie'] ?? [];
  const lines = Array.isArray(header) ? header : [header];
  return Object.fromEntries(
    lines.map((l) => l.split(';')[0]).map((pair) => [pair.slice(0, pair.indexOf('=')), decodeURIComponent(pair.slice(pair.indexOf('=') + 1))]),
  );
}

/** Signs in through next-auth's credentials callback; the console's cookies afterwards. */
async function consoleSignIn(email: string, password: string): Promise<Record<string, string>> {
  const csrf = await nextAuth('GET', ['csrf'], {});
  const jar = setCookies(csrf);
  const { csrfToken } = csrf.body as { csrfToken: string };
  const signIn = await nextAuth('POST', ['callback', 'credentials'], jar, { email, password, csrfToken });
  expect(signIn.status).toBe(302);
  return { ...jar, ...setCookies(signIn), csrfToken };
}

const cookieHeader = (jar: Record<string, string>) => ({ cookie: `next-auth.session-token=${jar['next-auth.session-token']}` });
const meWith = (jar: Record<string, string>) => call(meRoute, { path: '/api/auth/me', headers: cookieHeader(jar) });
const sessionOf = async (jar: Record<string, string>) => (await nextAuth('GET', ['session'], jar)).body as { user?: { email: string } };

describe('console sign-in through next-auth', () => {
  it('signs in with email and password; its session cookie works in the console and the API', async () => {
    const user = await createUser();
    const jar = await consoleSignIn(user.email, PASSWORD);
    expect(jar['next-auth.session-token']).toBeTruthy();
    expect((await sessionOf(jar)).user?.email).toBe(user.email);
    expect((await meWith(jar)).body.data).toMatchObject({ id: user.id, email: user.email });
  });

  it('refuses a wrong password (no session cookie)', async () => {
    const user = await createUser();
    const csrf = await nextAuth('GET', ['csrf'], {});
    const signIn = await nextAuth('POST', ['callback', 'credentials'], setCookies(csrf), {
      email: user.email,
      password: 'wrong password!',
      csrfToken: (csrf.body as { csrfToken: string }).csrfToken,
    });
    expect(setCookies(signIn)['next-auth.session-token']).toBeUndefined();
  });

  it('sign-out ends the session on the server: a copy of the cookie is refused afterwards', async () => {
    const user = await createUser();
    const jar = await consoleSignIn(user.email, PASSWORD);
    const stolen = { ...jar };
    const out = await nextAuth('POST', ['signout'], jar, { csrfToken: jar.csrfToken });
    expect(out.status).toBe(302);
    expect(await sessionOf(stolen)).toEqual({});
    const refused = await meWith(stolen);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('UNAUTHORIZED');
    // The account's other sessions stay.
    expect((await call(meRoute, { path: '/api/auth/me', headers: user.auth })).status).toBe(200);
  });
});

describe('console sign-in with two-factor sign-in on', () => {
  /** The credentials callback's answer for these fields (no cookie jar kept). */
  async function credentialsCallback(fields: Record<string, string>): Promise<Answer> {
    const csrf = await nextAuth('GET', ['csrf'], {});
    const { csrfToken } = csrf.body as { csrfToken: string };
    return nextAuth('POST', ['callback', 'credentials'], setCookies(csrf), { ...fields, csrfToken });
  }

  it('asks for the code (error=OTP_REQUIRED, no cookie), refuses a wrong one, and signs in with a current one', async () => {
    const user = await createUser();
    const { secret } = (await call(setupRoute, { method: 'POST', path: '/api/auth/2fa/setup', headers: user.auth })).body.data;
    const key = base32Decode(secret);
    // Enabled with the previous step's code, so the current step's code is still unspent for the sign-in.
    const enabled = await call(enableRoute, {
      method: 'POST',
      path: '/api/auth/2fa/enable',
      headers: user.auth,
      body: { code: totpAt(key, Date.now() - 30_000) },
    });
    expect(enabled.status).toBe(200);

    const withoutCode = await credentialsCallback({ email: user.email, password: PASSWORD });
    expect(withoutCode.status).toBe(302);
    expect(String(withoutCode.headers.location)).toContain('error=OTP_REQUIRED');
    expect(setCookies(withoutCode)['next-auth.session-token']).toBeUndefined();

    const wrong = await credentialsCallback({ email: user.email, password: PASSWORD, otp: '000000' });
    expect(String(wrong.headers.location)).toContain('/error?error=');
    expect(setCookies(wrong)['next-auth.session-token']).toBeUndefined();

    const signedIn = await credentialsCallback({ email: user.email, password: PASSWORD, otp: totpAt(key, Date.now()) });
    const jar = setCookies(signedIn);
    expect(jar['next-auth.session-token']).toBeTruthy();
    expect((await meWith(jar)).body.data).toMatchObject({ id: user.id, two_factor: true });
    const kinds = (await call(eventsRoute, { path: '/api/auth/events', headers: user.auth })).body.data.map((e: { kind: string }) => e.kind);
    expect(kinds.slice(0, 3)).toEqual(['sign_in', 'sign_in_failed', '2fa_enabled']);
  });
});

describe('account mail on the embedded default (no SMTP_URL)', () => {
  beforeAll(() => {
    delete process.env.SMTP_URL;
  });
  const lines = captureLogLines('info', [process.stdout]);

  it('keeps the reset mail in the account outbox the log points to; its link resets the password and ends the console session', async () => {
    const user = await createUser();
    const jar = await consoleSignIn(user.email, PASSWORD);
    const from = lines.length;
    const res = await call(forgotRoute, { method: 'POST', path: '/api/auth/password/forgot', body: { email: user.email } });
    expect(res.status).toBe(202);

    const logged = lines.slice(from).map((l) => JSON.parse(l) as { msg: string; file?: string });
    const pointer = logged.find((l) => l.msg.startsWith('account email kept in the account outbox'));
    expect(pointer?.file).toBeDefined();
    expect(path.dirname(pointer!.file!)).toBe(accountOutboxDir());
    const message = readFileSync(pointer!.file!, 'utf8');
    expect(message).toContain(`To: ${user.email}`);
    expect(message).toContain('Subject: Reset your password');
    const token = decodeURIComponent(/reset-password\?token=(\S+)/.exec(message)![1]);
    // The log names the file, never what is in it.
    expect(lines.slice(from).join('')).not.toContain(token);
    expect(readdirSync(accountOutboxDir()).length).toBeGreaterThan(0);

    expect(
      (await call(resetRoute, { method: 'POST', path: '/api/auth/password/reset', body: { token, password: 'a brand new passphrase' } })).status,
    ).toBe(200);
    expect((await meWith(jar)).status).toBe(401);
    expect(await sessionOf(jar)).toEqual({});
    expect((await consoleSignIn(user.email, 'a brand new passphrase'))['next-auth.session-token']).toBeTruthy();
  });
});
