'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { ApiError } from '@/lib/core/errors';
import { clientIpFrom } from '@/lib/http/client-ip';
import { forgotPasswordBodySchema, resetPasswordBodySchema, signupBodySchema, tokenBodySchema, verifyEmailBodySchema } from '@/lib/users/schema';
import { requestPasswordReset, resendVerification, resetPassword, signIn, signUp, verifyEmail, type Client } from '@/lib/users/service';
import { defineAction } from './define-action';
import { optionalText, text } from './forms';
import { publicOrigin, safeNext } from './request-origin';
import { endSession, startSession } from './session';

/** A new account is signed in at once; an address that already had one is told to look at its inbox, as the API answers. */
export const signUpAction = defineAction({
  access: 'anyone',
  schema: signupBodySchema.extend({ next: z.string() }),
  input: (form) => ({ email: text(form, 'email'), password: text(form, 'password'), name: optionalText(form, 'name'), next: text(form, 'next') }),
  run: async ({ input: { next: _next, ...account } }) => {
    const { created } = await signUp(account, await callerIp(), await publicOrigin());
    if (created) await startSession(created, await callerClient());
    return created !== null;
  },
  // A newcomer from an invitation link goes back to it, signed in.
  redirect: (created, input) => (created ? safeNext(input.next) : `/signin?notice=signup&next=${encodeURIComponent(safeNext(input.next))}`),
});

export const signInAction = defineAction({
  access: 'anyone',
  schema: tokenBodySchema.extend({ next: z.string(), otp_step: z.string().optional() }),
  input: (form) => ({
    email: text(form, 'email'),
    password: text(form, 'password'),
    otp: optionalText(form, 'otp'),
    next: text(form, 'next'),
    otp_step: optionalText(form, 'otp_step'),
  }),
  run: async ({ input }) => {
    const client = await callerClient();
    // Behind the same brute-force limits as POST /api/auth/token; with two-factor sign-in on, the
    // first answer is OTP_REQUIRED and the form asks for the code (its second step).
    const user = await signIn(input, client);
    // One message for an unknown email and a wrong password, as the API does.
    if (!user) throw new ApiError('UNAUTHORIZED', 'Invalid email or password');
    await startSession(user, client);
  },
  secret: ['otp'],
  errorField: (error) => (error.code === 'OTP_REQUIRED' ? 'otp' : 'form'),
  redirect: (_result, input) => safeNext(input.next),
});

/** The same answer whether or not the address has an account (POST /api/auth/password/forgot). */
export const forgotPasswordAction = defineAction({
  shownOnce: true,
  access: 'anyone',
  schema: forgotPasswordBodySchema,
  input: (form) => ({ email: text(form, 'email') }),
  run: async ({ input }) => (await requestPasswordReset(input.email, await callerIp(), await publicOrigin())).message,
  errorField: 'email',
  refill: (values) => values,
});

export const resetPasswordAction = defineAction({
  access: 'anyone',
  schema: resetPasswordBodySchema,
  input: (form) => ({ token: text(form, 'token'), password: text(form, 'password') }),
  run: async ({ input }) => {
    await resetPassword(input.token, input.password, await callerClient());
  },
  secret: ['token'],
  redirect: () => '/signin?notice=reset',
});

export const verifyEmailAction = defineAction({
  access: 'anyone',
  schema: verifyEmailBodySchema,
  input: (form) => ({ token: text(form, 'token') }),
  run: async ({ input }) => {
    await verifyEmail(input.token);
  },
  secret: ['token'],
  redirect: () => '/signin?notice=verified',
});

export const resendVerificationAction = defineAction({
  shownOnce: true,
  access: 'user',
  schema: z.object({}),
  input: () => ({}),
  run: async ({ user }) => (await resendVerification(user.id, await callerIp(), await publicOrigin())).sent,
  // Verified meanwhile (another tab): the banner goes with the console's layout.
  revalidate: (_input, sent) => (sent ? [] : [{ layout: '' }]),
});

export async function signOutAction(): Promise<void> {
  await endSession();
  redirect('/signin');
}

/** The caller's address for the per-IP limits (see lib/http/client-ip.ts and TRUST_PROXY). */
async function callerIp(): Promise<string> {
  return clientIpFrom((await headers()).get('x-forwarded-for'));
}

/** The caller as sessions and the account audit log keep it: its address and user agent. */
async function callerClient(): Promise<Client> {
  return { ip: await callerIp(), userAgent: (await headers()).get('user-agent') };
}
