import NextAuth from 'next-auth';
import { z } from 'zod';
import { admitAttempt, refusedSsoCallback } from '@/lib/auth/brute-force';
import { policies } from '@/lib/http/auth/policies';
import { rateLimitHeaders, retryAfterSeconds } from '@/lib/ratelimit/answers';
import type { LimitResult } from '@/lib/ratelimit/port';
import { authOptions } from '@/lib/users/next-auth';
import type { SsoRefusal } from '@/lib/users/sso';
import { SSO_PROVIDER_ID } from '@/lib/users/sso-provider';
import { clientOf } from './client-ip';
import { defineProtocolRoute } from './define-route';

const CREDENTIALS_CALLBACK = /\/api\/auth\/callback\/credentials\/?$/;
const SSO_CALLBACK = new RegExp(`/api/auth/callback/${SSO_PROVIDER_ID}/?$`);

/**
 * A single sign-on callback past the per-IP limit goes where the callback's other refusals go: the
 * sign-in page with the reason (`?error=`), which explains it; Retry-After says when to come back.
 */
function ssoCallbackRefused(window: LimitResult): Response {
  const reason: SsoRefusal = 'SsoRateLimited';
  return new Response(null, {
    status: 302,
    headers: { location: `/signin?error=${reason}`, 'retry-after': String(retryAfterSeconds(window.reset)), ...rateLimitHeaders(window) },
  });
}

/**
 * next-auth's own endpoints for the console (sign-in, callback, session, CSRF), through the
 * pipeline's steps: request id, error masking, and the brute-force limits of sign-up and token in
 * front of the credentials sign-in — a locked-out IP or account gets 429 RATE_LIMITED before any
 * password check — and the per-IP limit in front of the single sign-on callback, before the
 * provider is asked.
 */
export const nextAuthRoute = defineProtocolRoute(
  {
    summary: 'Console sign-in endpoints (next-auth)',
    tags: ['Auth'],
    auth: policies.public,
    response: z.unknown(),
    envelope: 'raw',
    errors: ['RATE_LIMITED'],
  },
  async ({ req }, params) => {
    const { pathname } = new URL(req.url);
    if (SSO_CALLBACK.test(pathname)) {
      const refused = await refusedSsoCallback(clientOf(req).ip);
      if (refused) return ssoCallbackRefused(refused);
    }
    if (req.method === 'POST' && CREDENTIALS_CALLBACK.test(pathname)) {
      const form = await req
        .clone()
        .formData()
        .catch(() => undefined);
      const email = form?.get('email');
      await admitAttempt({ ip: clientOf(req).ip, account: typeof email === 'string' ? email : '' });
    }
    return NextAuth(authOptions(clientOf(req)))(req, { params: Promise.resolve(params) });
  },
);
