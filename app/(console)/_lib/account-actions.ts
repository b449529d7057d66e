'use server';

import { headers } from 'next/headers';
import { z } from 'zod';
import { uuidSchema } from '@/lib/core/schemas';
import { clientIpFrom } from '@/lib/http/client-ip';
import { twoFactorCodeBodySchema } from '@/lib/users/schema';
import {
  disableTwoFactor,
  enableTwoFactor,
  endAccountSession,
  endOtherSessions,
  regenerateRecoveryCodes,
  setUpTwoFactor,
  type Client,
} from '@/lib/users/service';
import { defineAction } from './define-action';
import { text } from './forms';
import { currentSessionId } from './session';

/** The account security page's actions: the same domain calls as /api/auth/2fa/* and /api/auth/sessions. */
const PAGE = '/account/security';

async function callerClient(): Promise<Client> {
  const h = await headers();
  return { ip: clientIpFrom(h.get('x-forwarded-for')), userAgent: h.get('user-agent') };
}

const codeInput = (form: FormData) => ({ code: text(form, 'code') });

/** A new pending secret: the form shows its QR code and asks for a first code. */
export const setUpTwoFactorAction = defineAction({
  shownOnce: true,
  access: 'user',
  schema: z.object({}),
  input: () => ({}),
  run: ({ user }) => setUpTwoFactor(user.id),
});

/** Turns it on; the recovery codes travel back in this response only. */
export const enableTwoFactorAction = defineAction({
  shownOnce: true,
  access: 'user',
  schema: twoFactorCodeBodySchema,
  input: codeInput,
  run: async ({ user, input }) => enableTwoFactor(user.id, input.code, await callerClient()),
  errorField: 'code',
  secret: ['code'],
  revalidate: () => [PAGE, { layout: '' }],
});

export const disableTwoFactorAction = defineAction({
  access: 'user',
  schema: twoFactorCodeBodySchema,
  input: codeInput,
  run: async ({ user, input }) => {
    await disableTwoFactor(user.id, input.code, await callerClient());
  },
  errorField: 'code',
  secret: ['code'],
  revalidate: () => [PAGE],
});

export const regenerateRecoveryCodesAction = defineAction({
  shownOnce: true,
  access: 'user',
  schema: twoFactorCodeBodySchema,
  input: codeInput,
  run: async ({ user, input }) => regenerateRecoveryCodes(user.id, input.code, await callerClient()),
  errorField: 'code',
  secret: ['code'],
  revalidate: () => [PAGE],
});

export const endSessionAction = defineAction({
  access: 'user',
  schema: z.object({ session_id: uuidSchema }),
  run: async ({ user, input }) => {
    await endAccountSession(user.id, input.session_id.toLowerCase(), await callerClient());
  },
  revalidate: () => [PAGE],
});

export const endOtherSessionsAction = defineAction({
  access: 'user',
  schema: z.object({}),
  input: () => ({}),
  run: async ({ user }) => (await endOtherSessions(user.id, await currentSessionId(), await callerClient())).revoked,
  revalidate: () => [PAGE],
});
