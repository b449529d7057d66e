import NextAuth from 'next-auth';
import { z } from 'zod';
import { admitAttempt } from '@/lib/auth/brute-force';
import { authOptions } from '@/lib/auth/next-auth';
import { policies } from '@/lib/http/auth/policies';
import { clientOf } from './client-ip';
import { defineProtocolRoute } from './define-route';

const CREDENTIALS_CALLBACK = /\/api\/auth\/callback\/credentials\/?$/;

/**
 * next-auth's own endpoints for the console (sign-in, callback, session, CSRF), through the
 * pipeline's steps: request id, error masking, and the brute-force limits of sign-up and token in
 * front of the credentials sign-in — a locked-out IP or account gets 429 RATE_LIMITED before any
 * password check.
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
    if (req.method === 'POST' && CREDENTIALS_CALLBACK.test(new URL(req.url).pathname)) {
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
