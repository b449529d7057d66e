'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { clientIpFrom } from '@/lib/http/client-ip';
import { ApiError } from '@/lib/core/errors';
import { signupBodySchema, tokenBodySchema } from '@/lib/users/schema';
import { signIn, signUp } from '@/lib/users/service';
import { fieldErrors, optionalText, safeParseForm, text, type FormState } from './forms';
import { endSession, startSession } from './session';

export async function signUpAction(_prev: FormState, form: FormData): Promise<FormState> {
  const values = { email: text(form, 'email'), name: text(form, 'name') };
  const parsed = safeParseForm(signupBodySchema, {
    email: values.email,
    password: text(form, 'password'),
    name: optionalText(form, 'name'),
  });
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  try {
    const user = await signUp(parsed.data, await callerIp());
    await startSession(user);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'CONFLICT') return { errors: { email: error.message }, values };
    if (error instanceof ApiError) return { errors: { form: error.message }, values };
    throw error;
  }
  redirect('/console');
}

export async function signInAction(_prev: FormState, form: FormData): Promise<FormState> {
  const values = { email: text(form, 'email') };
  const parsed = safeParseForm(tokenBodySchema, { email: values.email, password: text(form, 'password') });
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  let user;
  try {
    // Behind the same brute-force limits as POST /api/auth/token.
    user = await signIn(parsed.data.email, parsed.data.password, await callerIp());
  } catch (error) {
    if (error instanceof ApiError) return { errors: { form: error.message }, values };
    throw error;
  }
  // One message for an unknown email and a wrong password, as the API does.
  if (!user) return { errors: { form: 'Invalid email or password' }, values };
  await startSession(user);
  redirect(safeNext(text(form, 'next')));
}

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
