'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { ApiError } from '@/lib/core/errors';
import { clientIpFrom } from '@/lib/http/client-ip';
import { signupBodySchema, tokenBodySchema } from '@/lib/users/schema';
import { signIn, signUp } from '@/lib/users/service';
import { defineAction } from './define-action';
import { optionalText, text } from './forms';
import { endSession, startSession } from './session';

export const signUpAction = defineAction({
  access: 'anyone',
  schema: signupBodySchema,
  input: (form) => ({ email: text(form, 'email'), password: text(form, 'password'), name: optionalText(form, 'name') }),
  run: async ({ input }) => {
    await startSession(await signUp(input, await callerIp()));
  },
  errorField: (error) => (error.code === 'CONFLICT' ? 'email' : 'form'),
  redirect: () => '/console',
});

export const signInAction = defineAction({
  access: 'anyone',
  schema: tokenBodySchema.extend({ next: z.string() }),
  input: (form) => ({ email: text(form, 'email'), password: text(form, 'password'), next: text(form, 'next') }),
  run: async ({ input }) => {
    // Behind the same brute-force limits as POST /api/auth/token.
    const user = await signIn(input.email, input.password, await callerIp());
    // One message for an unknown email and a wrong password, as the API does.
    if (!user) throw new ApiError('UNAUTHORIZED', 'Invalid email or password');
    await startSession(user);
  },
  redirect: (_result, input) => safeNext(input.next),
});

export async function signOutAction(): Promise<void> {
  await endSession();
  redirect('/signin');
}

/** The caller's address for the per-IP limits (see lib/http/client-ip.ts and TRUST_PROXY). */
async function callerIp(): Promise<string> {
  return clientIpFrom((await headers()).get('x-forwarded-for'));
}

/** Only a path inside the console may be the target after sign-in (no open redirect). */
function safeNext(next: string): string {
  return /^\/console(?:[/?#]|$)/.test(next) ? next : '/console';
}
