import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET as meRoute } from '@/app/api/auth/me/route';
import { POST as forgotRoute } from '@/app/api/auth/password/forgot/route';
import { POST as resetRoute } from '@/app/api/auth/password/reset/route';
import { POST as tokenRoute } from '@/app/api/auth/token/route';
import { resetConfig } from '@/lib/core/config';
import { rows } from '@/lib/db/raw';
import { nextAuthRoute } from '@/lib/http/next-auth-route';
import { accountOutboxDir } from '@/lib/users/account-outbox';
import { BASE, call, createUser, PASSWORD } from '@/tests/helpers/harness';
import { callNextAuth } from '@/tests/helpers/next-auth-call';
import { startOidcProvider, type TestOpenIdProvider } from '@/tests/helpers/oidc-provider';

/**
 * Single sign-on against a real OpenID Provider (oidc-provider on 127.0.0.1): next-auth's own
 * endpoints with our options (sign-in start, callback, session, sign-out) called as Next calls
 * them, and the provider's authorization endpoint and login page over HTTP, following every
 * redirect by hand with a cookie jar for each side.
 */
let op: TestOpenIdProvider;
const REDIRECT_URI = `${BASE}/api/auth/callback/oidc`;
const SSO_ENV = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_ALLOWED_DOMAINS', 'OIDC_NAME', 'NEXTAUTH_URL', 'OPEN_SIGNUP'];

function configure(extra: Record<string, string> = {}) {
  for (const name of SSO_ENV) delete process.env[name];
  Object.assign(process.env, {
    NEXTAUTH_URL: BASE,
    OIDC_ISSUER: op.issuer,
    OIDC_CLIENT_ID: op.clientId,
    OIDC_CLIENT_SECRET: op.clientSecret,
    OIDC_NAME: 'Test IdP',
    ...extra,
  });
  resetConfig();
}

beforeAll(async () => {
  op = await startOidcProvider({ redirectUri: REDIRECT_URI });
  configure();
});
afterEach(() => configure());
afterAll(async () => {
  for (const name of SSO_ENV) delete process.env[name];
  resetConfig();
  await op.close();
});

type Jar = Record<string, string>;

/** Adds the cookies set by an answer to the jar (an expired one leaves it). */
function keep(jar: Jar, setCookie: string | string[] | null | undefined): void {
  const lines = !setCookie ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  for (const line of lines) {
    const [pair, ...attributes] = line.split(';');
    const name = pair.slice(0, pair.indexOf('='));
    const value = decodeURIComponent(pair.slice(pair.indexOf('=') + 1));
    const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]) < Date.now()));
    if (expired || value === '') delete jar[name];
    else jar[name] = value;
  }
}

const cookieHeader = (jar: Jar) =>
  Object.entries(jar)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');

/** One request to the provider, its cookies kept; the redirect's target, resolved. */
async function atProvider(jar: Jar, url: string, form?: Record<string, string>) {
  const res = await fetch(new URL(url, op.issuer), {
    method: form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: { cookie: cookieHeader(jar), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    body: form ? new URLSearchParams(form) : undefined,
  });
  keep(jar, res.headers.getSetCookie());
  const location = res.headers.get('location');
  return { status: res.status, location: location ? new URL(location, op.issuer).toString() : null, text: await res.text() };
}

interface SsoResult {
  /** Where next-auth sent the browser after the callback. */
  location: string;
  /** The console's cookies afterwards (a session token when signed in). */
  jar: Jar;
}

/** A whole sign-in with the provider's account `subject`: button, provider login page, callback (through the route from `from`). */
async function ssoSignIn(subject: string, from?: string): Promise<SsoResult> {
  const jar: Jar = {};
  const csrf = await callNextAuth('GET', ['csrf'], jar);
  keep(jar, csrf.headers['set-cookie']);
  const csrfToken = (csrf.body as { csrfToken: string }).csrfToken;
  const start = await callNextAuth('POST', ['signin', 'oidc'], jar, { body: { csrfToken, callbackUrl: `${BASE}/console` } });
  expect(start.status).toBe(302);
  keep(jar, start.headers['set-cookie']);
  const authorize = new URL(start.headers.location as string);
  expect(authorize.origin).toBe(op.issuer);
  expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
    client_id: op.clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'openid email profile',
    code_challenge_method: 'S256',
  });
  expect(authorize.searchParams.get('state')).toBeTruthy();

  const opJar: Jar = {};
  const toLogin = await atProvider(opJar, authorize.toString());
  expect(toLogin.location).toMatch(/\/interaction\/[\w-]+$/);
  const page = await atProvider(opJar, toLogin.location!);
  expect(page.status).toBe(200);
  expect(page.text).toContain('name="login"');
  let step = await atProvider(opJar, `${new URL(toLogin.location!).pathname}/login`, { login: subject });
  while (step.location && !step.location.startsWith(REDIRECT_URI)) step = await atProvider(opJar, step.location);
  expect(step.location, step.text).toBeTruthy();

  const back = new URL(step.location!);
  expect(back.searchParams.get('code')).toBeTruthy();
  const callback = await returnToCallback(Object.fromEntries(back.searchParams), jar, from);
  expect(callback.status).toBe(302);
  keep(jar, callback.setCookie);
  expect(op.errors).toEqual([]);
  return { location: callback.location!, jar };
}

/**
 * The provider's return to /api/auth/callback/oidc: next-auth's handler as Next calls it, or, from
 * a client address, through the route's steps (nextAuthRoute) as a browser's request arrives.
 */
async function returnToCallback(query: Record<string, string>, jar: Jar, from?: string) {
  if (from === undefined) {
    const answer = await callNextAuth('GET', ['callback', 'oidc'], jar, { query });
    const header = (name: string) => (answer.headers[name] as string | undefined) ?? null;
    return { status: answer.status, location: header('location'), setCookie: answer.headers['set-cookie'], header };
  }
  const answer = await call(nextAuthRoute as never, {
    path: '/api/auth/callback/oidc',
    params: { nextauth: ['callback', 'oidc'] } as never,
    query,
    headers: { 'x-forwarded-for': from, cookie: cookieHeader(jar) },
  });
  const header = (name: string) => answer.headers.get(name);
  return { status: answer.status, location: header('location'), setCookie: answer.headers.getSetCookie(), header };
}

const SESSION = 'next-auth.session-token';
const auth = (jar: Jar) => ({ cookie: `${SESSION}=${jar[SESSION]}` });
const me = (jar: Jar) => call(meRoute, { path: '/api/auth/me', headers: auth(jar) });

function account(claims: { email?: string; email_verified?: boolean | string; name?: string }): string {
  const subject = `sub-${randomBytes(6).toString('hex')}`;
  op.accounts.set(subject, claims);
  return subject;
}

const newEmail = (domain = 'example.com') => `sso-${randomBytes(6).toString('hex')}@${domain}`;
const userByEmail = async (email: string) =>
  (
    await rows<{ id: string; password_hash: string | null; email_verified_at: Date | null; name: string | null }>(
      sql`select id, password_hash, email_verified_at, name from users where lower(email) = lower(${email})`,
    )
  )[0];
const identitiesOf = (userId: string) =>
  rows<{ issuer: string; subject: string; email: string }>(sql`select issuer, subject, email from sso_identities where user_id = ${userId}`);
const liveSessionsOf = async (userId: string) =>
  (await rows<{ n: number }>(sql`select count(*)::int as n from user_sessions where user_id = ${userId} and revoked_at is null`))[0].n;

/** The password reset link mailed to `email`, from the account outbox (no SMTP_URL in the suites). */
function resetTokenMailedTo(email: string): string {
  const dir = accountOutboxDir();
  const message = readdirSync(dir)
    .map((f) => readFileSync(path.join(dir, f), 'utf8'))
    .find((m) => m.includes(`To: ${email}`) && m.includes('Subject: Reset your password'));
  return decodeURIComponent(/reset-password\?token=(\S+)/.exec(message!)![1]);
}

describe('single sign-on with an OpenID Connect provider', () => {
  it('makes a new account for a verified address: signed in, verified, no password until a reset sets one', async () => {
    const email = newEmail();
    const subject = account({ email, email_verified: true, name: 'Grace Hopper' });
    const { location, jar } = await ssoSignIn(subject);
    expect(location).toBe(`${BASE}/console`);
    expect(jar[SESSION]).toBeTruthy();

    const res = await me(jar);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ email, name: 'Grace Hopper', email_verified: true });
    expect((await callNextAuth('GET', ['session'], jar)).body).toMatchObject({ user: { email, id: res.body.data.id } });
    const row = await userByEmail(email);
    expect(row.password_hash).toBeNull();
    expect(await identitiesOf(row.id)).toEqual([{ issuer: op.issuer, subject, email }]);
    // The session is one of the account's sessions, as a password sign-in's is.
    expect(await liveSessionsOf(row.id)).toBe(1);

    // No password: every password is refused, with the usual answer.
    const token = await call(tokenRoute, { method: 'POST', path: '/api/auth/token', body: { email, password: PASSWORD } });
    expect(token.status).toBe(401);
    expect(token.body.error).toMatchObject({ code: 'UNAUTHORIZED', message: 'Invalid email or password' });
    // A reset sets one (and, as every reset does, ends the SSO session too).
    expect((await call(forgotRoute, { method: 'POST', path: '/api/auth/password/forgot', body: { email } })).status).toBe(202);
    const reset = await call(resetRoute, {
      method: 'POST',
      path: '/api/auth/password/reset',
      body: { token: resetTokenMailedTo(email), password: PASSWORD },
    });
    expect(reset.status).toBe(200);
    expect((await call(tokenRoute, { method: 'POST', path: '/api/auth/token', body: { email, password: PASSWORD } })).status).toBe(200);
    expect((await me(jar)).status).toBe(401);
  });

  it('links the existing account with that address; an address nobody had proven loses the password and sessions set before', async () => {
    const user = await createUser();
    const subject = account({ email: user.email.toUpperCase(), email_verified: true, name: 'Someone else' });
    const { location, jar } = await ssoSignIn(subject);
    expect(location).toBe(`${BASE}/console`);
    const res = await me(jar);
    expect(res.body.data).toMatchObject({ id: user.id, email: user.email, email_verified: true });
    // The account's own name is kept; the identity is linked.
    expect(res.body.data.name).toBeNull();
    expect(await identitiesOf(user.id)).toEqual([{ issuer: op.issuer, subject, email: user.email }]);
    // Whoever signed up with the address never proved it: that password and session end.
    expect((await call(meRoute, { path: '/api/auth/me', headers: user.auth })).status).toBe(401);
    const token = await call(tokenRoute, { method: 'POST', path: '/api/auth/token', body: { email: user.email, password: PASSWORD } });
    expect(token.status).toBe(401);
    expect(await liveSessionsOf(user.id)).toBe(1);
  });

  it('links an account whose address was verified and keeps its password and sessions', async () => {
    const user = await createUser();
    await rows(sql`update users set email_verified_at = now() where id = ${user.id}`);
    const { jar } = await ssoSignIn(account({ email: user.email, email_verified: 'true' }));
    expect((await me(jar)).body.data.id).toBe(user.id);
    expect((await call(meRoute, { path: '/api/auth/me', headers: user.auth })).status).toBe(200);
    const token = await call(tokenRoute, { method: 'POST', path: '/api/auth/token', body: { email: user.email, password: PASSWORD } });
    expect(token.status).toBe(200);
  });

  it.each([
    ['an unverified address', { email_verified: false }, 'SsoEmailUnverified'],
    ['an address without email_verified', {}, 'SsoEmailUnverified'],
    ['no address at all', { email: undefined, email_verified: true }, 'SsoEmailMissing'],
  ])('refuses %s on the sign-in page, with no session and no account', async (_case, claims, error) => {
    const email = newEmail();
    const { location, jar } = await ssoSignIn(account({ email, ...claims }));
    expect(location).toBe(`/signin?error=${error}`);
    expect(jar[SESSION]).toBeUndefined();
    expect(await userByEmail(email)).toBeUndefined();
  });

  it('refuses an address of a domain OIDC_ALLOWED_DOMAINS does not list, and admits one it lists', async () => {
    configure({ OIDC_ALLOWED_DOMAINS: 'Corp.example, lab.example' });
    const outside = newEmail('other.example');
    const refused = await ssoSignIn(account({ email: outside, email_verified: true }));
    expect(refused.location).toBe('/signin?error=SsoDomainNotAllowed');
    expect(refused.jar[SESSION]).toBeUndefined();
    expect(await userByEmail(outside)).toBeUndefined();
    // A subdomain is another domain.
    expect((await ssoSignIn(account({ email: newEmail('eu.corp.example'), email_verified: true }))).location).toBe(
      '/signin?error=SsoDomainNotAllowed',
    );

    const inside = newEmail('corp.example');
    const admitted = await ssoSignIn(account({ email: inside, email_verified: true }));
    expect(admitted.location).toBe(`${BASE}/console`);
    expect((await me(admitted.jar)).body.data.email).toBe(inside);
  });

  it('keeps signing the same identity in to its account after its address changed at the provider', async () => {
    const first = newEmail();
    const subject = account({ email: first, email_verified: true });
    const before = await ssoSignIn(subject);
    const userId = (await me(before.jar)).body.data.id;

    const second = newEmail();
    op.accounts.set(subject, { email: second, email_verified: true });
    const after = await ssoSignIn(subject);
    expect(after.location).toBe(`${BASE}/console`);
    const res = await me(after.jar);
    // The same account, whose own address stays the one it had; the link records the new one.
    expect(res.body.data).toMatchObject({ id: userId, email: first });
    expect(await userByEmail(second)).toBeUndefined();
    expect(await identitiesOf(userId)).toEqual([{ issuer: op.issuer, subject, email: second }]);

    // The old address, now another person's at the provider, does not open the linked account.
    const newcomer = await ssoSignIn(account({ email: first, email_verified: true }));
    expect(newcomer.location).toBe('/signin?error=SsoLinkedElsewhere');
    expect(newcomer.jar[SESSION]).toBeUndefined();
  });

  it('with sign-up closed, links existing accounts but makes no new one', async () => {
    const user = await createUser();
    configure({ OPEN_SIGNUP: 'false' });
    const email = newEmail();
    const refused = await ssoSignIn(account({ email, email_verified: true }));
    expect(refused.location).toBe('/signin?error=SsoSignupClosed');
    expect(await userByEmail(email)).toBeUndefined();
    const linked = await ssoSignIn(account({ email: user.email, email_verified: true }));
    expect((await me(linked.jar)).body.data.id).toBe(user.id);
  });

  it('sign-out ends the session on the server: a copy of the cookie is refused afterwards', async () => {
    const { jar } = await ssoSignIn(account({ email: newEmail(), email_verified: true }));
    const stolen = { ...jar };
    const userId = (await me(jar)).body.data.id;
    const out = await callNextAuth('POST', ['signout'], jar, { body: { csrfToken: jar['next-auth.csrf-token'].split('|')[0] } });
    expect(out.status).toBe(302);
    expect((await callNextAuth('GET', ['session'], stolen)).body).toEqual({});
    const refused = await me(stolen);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('UNAUTHORIZED');
    expect(await liveSessionsOf(userId)).toBe(0);
  });

  it('a failed callback (a forged state) comes back to the sign-in page, with no session', async () => {
    const jar: Jar = {};
    const csrf = await callNextAuth('GET', ['csrf'], jar);
    keep(jar, csrf.headers['set-cookie']);
    const start = await callNextAuth('POST', ['signin', 'oidc'], jar, { body: { csrfToken: (csrf.body as { csrfToken: string }).csrfToken } });
    keep(jar, start.headers['set-cookie']);
    const callback = await callNextAuth('GET', ['callback', 'oidc'], jar, { query: { code: 'made-up', state: 'forged', iss: op.issuer } });
    expect(callback.status).toBe(302);
    expect(callback.headers.location).toBe(`${BASE}/api/auth/error?error=OAuthCallback`);
    keep(jar, callback.headers['set-cookie']);
    expect(jar[SESSION]).toBeUndefined();
    // next-auth's error and sign-in endpoints send it on to the sign-in page, which explains it.
    const error = await callNextAuth('GET', ['error'], jar, { query: { error: 'OAuthCallback' } });
    expect(error.headers.location).toBe(`${BASE}/api/auth/signin?error=OAuthCallback`);
    const signin = await callNextAuth('GET', ['signin'], jar, { query: { error: 'OAuthCallback' } });
    expect(new URL(signin.headers.location as string, BASE).pathname).toBe('/signin');
    expect(new URL(signin.headers.location as string, BASE).searchParams.get('error')).toBe('OAuthCallback');
  });

  it('without OIDC_ISSUER there is no SSO provider', async () => {
    for (const name of SSO_ENV) delete process.env[name];
    resetConfig();
    const providers = await callNextAuth('GET', ['providers'], {});
    expect(Object.keys(providers.body as object)).toEqual(['credentials']);
  });
});

describe('the single sign-on callback is limited per client IP', () => {
  const LIMITS = { RATE_LIMIT_BACKEND: 'memory', AUTH_RATE_LIMIT_PER_IP: '2' };
  let previous: Record<string, string | undefined>;
  beforeAll(() => {
    previous = Object.fromEntries(Object.keys(LIMITS).map((k) => [k, process.env[k]]));
    Object.assign(process.env, LIMITS);
    resetConfig();
  });
  afterEach(() => vi.useRealTimers());
  afterAll(() => {
    for (const [k, v] of Object.entries(previous)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetConfig();
  });

  /** A return with a made-up code and state (next-auth refuses it itself, when the limit lets it through). */
  const forged = (from: string) => returnToCallback({ code: 'made-up', state: 'forged', iss: op.issuer }, {}, from);
  const REFUSED = '/signin?error=SsoRateLimited';

  // Within the limit the route hands the callback to next-auth, whose App Router handler needs Next's
  // request scope (a whole sign-in through the server with the limit on: tests/e2e/sso.test.ts); here
  // the limit's own answer is what is asserted.
  it('past AUTH_RATE_LIMIT_PER_IP callbacks a minute, the sign-in page says why, before the provider is asked', async () => {
    // Pinned at the start of a minute so the callbacks cannot straddle two windows.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2026, 11, 1, 10, 0, 0));
    const ip = '203.0.113.7';
    for (let i = 0; i < 2; i++) expect((await forged(ip)).location).not.toBe(REFUSED);

    const refused = await forged(ip);
    expect(refused.status).toBe(302);
    expect(refused.location).toBe(REFUSED);
    expect(Number(refused.header('retry-after'))).toBeGreaterThan(0);
    expect(refused.header('x-ratelimit-limit')).toBe('2');
    expect(refused.header('x-ratelimit-remaining')).toBe('0');
    expect(refused.setCookie).toEqual([]);
    // A valid return is refused the same way: its code is never exchanged, no account is made.
    const email = newEmail();
    const late = await ssoSignIn(account({ email, email_verified: true }), ip);
    expect(late.location).toBe(REFUSED);
    expect(late.jar[SESSION]).toBeUndefined();
    expect(await userByEmail(email)).toBeUndefined();

    // Another address is not held back, and this one's password sign-ins count apart.
    expect((await forged('203.0.113.8')).location).not.toBe(REFUSED);
    const token = await call(tokenRoute, {
      method: 'POST',
      path: '/api/auth/token',
      headers: { 'x-forwarded-for': ip },
      body: { email: newEmail(), password: PASSWORD },
    });
    expect(token.status).toBe(401);
  });
});
