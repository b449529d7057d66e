import { describe, expect, it } from 'vitest';
import { POST as signupRoute } from '@/app/api/auth/signup/route';
import { POST as tokenRoute } from '@/app/api/auth/token/route';
import { nextAuthRoute } from '@/lib/http/next-auth-route';
import { call, createUser, PASSWORD, uniqueEmail } from '@/tests/helpers/harness';
import { limiterClock, useRateLimits } from '@/tests/helpers/rate-limits';

useRateLimits({ AUTH_RATE_LIMIT_PER_IP: '8', AUTH_FAILURES_PER_ACCOUNT: '3' });

let nextIp = 1;
const freshIp = () => ({ 'x-forwarded-for': `198.51.100.${nextIp++}` });
const token = (email: string, password: string, headers: Record<string, string>) =>
  call(tokenRoute, { method: 'POST', path: '/api/auth/token', headers, body: { email, password } });
const signup = (email: string, headers: Record<string, string>) =>
  call(signupRoute, { method: 'POST', path: '/api/auth/signup', headers, body: { email, password: PASSWORD } });
const credentialsSignIn = (email: string, headers: Record<string, string>) =>
  call(nextAuthRoute as never, {
    method: 'POST',
    path: '/api/auth/callback/credentials',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    rawBody: new URLSearchParams({ email, password: 'x', csrfToken: 'x' }).toString(),
  });

function expect429(res: { status: number; body: any; headers: Headers }, message: string) {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({
    success: false,
    error: { code: 'RATE_LIMITED', message: expect.stringContaining(message), request_id: expect.any(String) },
  });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
}

describe('per account', () => {
  it('locks an account after 3 failed token attempts, even for the right password, from any address', async () => {
    const user = await createUser();
    for (let i = 0; i < 3; i++) expect((await token(user.email, 'wrong password', freshIp())).status).toBe(401);
    expect429(await token(user.email, PASSWORD, freshIp()), 'for this account');
    expect429(await token(user.email.toUpperCase(), PASSWORD, freshIp()), 'for this account');
    // The console sign-in is refused the same way, before any password check.
    expect429(await credentialsSignIn(user.email, freshIp()), 'for this account');
    // Other accounts are unaffected.
    const other = await createUser();
    expect((await token(other.email, PASSWORD, freshIp())).status).toBe(200);
  });

  it('successful attempts do not count against the account', async () => {
    const user = await createUser();
    for (let i = 0; i < 5; i++) expect((await token(user.email, PASSWORD, freshIp())).status).toBe(200);
  });

  it('counts sign-ups of a taken e-mail as failures', async () => {
    const email = uniqueEmail();
    expect((await signup(email, freshIp())).status).toBe(202);
    for (let i = 0; i < 3; i++) expect((await signup(email, freshIp())).status).toBe(202);
    expect429(await signup(email, freshIp()), 'for this account');
  });
});

describe('per client IP', () => {
  const setNow = limiterClock();

  it('allows 8 attempts per minute from one address across sign-up, token and sign-in', async () => {
    // Pinned at the start of a minute so the attempts cannot straddle two windows.
    setNow(Date.UTC(2026, 10, 21, 10, 0, 0));
    const ip = freshIp();
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await signup(uniqueEmail(), ip)).status);
    for (let i = 0; i < 5; i++) statuses.push((await token(uniqueEmail(), 'whatever password', ip)).status);
    expect(statuses).toEqual([202, 202, 202, 401, 401, 401, 401, 401]);
    expect429(await token(uniqueEmail(), 'whatever password', ip), 'from this address');
    expect429(await signup(uniqueEmail(), ip), 'from this address');
    expect429(await credentialsSignIn(uniqueEmail(), ip), 'from this address');
    // Another address still gets through.
    expect((await signup(uniqueEmail(), freshIp())).status).toBe(202);
  });
});
