import { describe, expect, it } from 'vitest';
import { POST as forgotRoute } from '@/app/api/auth/password/forgot/route';
import { POST as resendRoute } from '@/app/api/auth/verify-email/resend/route';
import { call, createUser, uniqueEmail } from '@/tests/helpers/harness';
import { limiterClock, useRateLimits } from '@/tests/helpers/rate-limits';

/** The limits of account mail: per address (known or not, alike) and per client IP. */
useRateLimits({ ACCOUNT_MAILS_PER_ADDRESS: '2', AUTH_RATE_LIMIT_PER_IP: '6' });

let nextIp = 1;
const freshIp = () => ({ 'x-forwarded-for': `203.0.113.${nextIp++}` });
const forgot = (email: string, headers: Record<string, string>) =>
  call(forgotRoute, { method: 'POST', path: '/api/auth/password/forgot', headers, body: { email } });

function expect429(res: { status: number; body: any; headers: Headers }, message: string) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({
    success: false,
    error: { code: 'RATE_LIMITED', message: expect.stringContaining(message), details: expect.any(Object), request_id: expect.any(String) },
  });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
}

const setNow = limiterClock();

describe('POST /api/auth/password/forgot', () => {
  it('limits requests per address, the same way for an address with an account and one without', async () => {
    const user = await createUser();
    const unknown = uniqueEmail();
    for (const email of [user.email, unknown]) {
      for (let i = 0; i < 2; i++) expect((await forgot(email, freshIp())).status).toBe(202);
      expect429(await forgot(email, freshIp()), 'to this email address');
      expect429(await forgot(email.toUpperCase(), freshIp()), 'to this email address');
    }
    // Other addresses are unaffected.
    expect((await forgot(uniqueEmail(), freshIp())).status).toBe(202);
  });

  it('limits requests per client IP across addresses', async () => {
    // Pinned at the start of a minute so the requests cannot straddle two windows.
    setNow(Date.UTC(2026, 11, 1, 10, 0, 0));
    const ip = freshIp();
    for (let i = 0; i < 6; i++) expect((await forgot(uniqueEmail(), ip)).status).toBe(202);
    expect429(await forgot(uniqueEmail(), ip), 'from this address');
    expect((await forgot(uniqueEmail(), freshIp())).status).toBe(202);
  });
});

describe('POST /api/auth/verify-email/resend', () => {
  it('limits resends per address', async () => {
    const user = await createUser();
    const resend = () => call(resendRoute, { method: 'POST', path: '/api/auth/verify-email/resend', headers: { ...user.auth, ...freshIp() } });
    for (let i = 0; i < 2; i++) expect((await resend()).status).toBe(202);
    expect429(await resend(), 'to this email address');
  });
});
