'use server';

import { cookies, headers } from 'next/headers';
import { z } from 'zod';
import { createAnnotation, createAnnotationBodySchema, removeAnnotation } from '@/lib/analytics/annotations';
import { reportSettingsSchema, saveReportSettings } from '@/lib/analytics/reports';
import { createShareBodySchema, createSharedLink, revokeSharedLink, shareCookieName, unlockShare } from '@/lib/analytics/shares';
import { guardAttempt } from '@/lib/auth/brute-force';
import { ApiError } from '@/lib/core/errors';
import { clientIpFrom } from '@/lib/http/client-ip';
import { sessionCookie } from '@/lib/users/session-tokens';
import { actionGroup, defineAction } from './define-action';
import { optionalText, text } from './forms';
import { publicOrigin } from './request-origin';

const sharing = actionGroup({ permission: 'settings.manage', revalidate: ['/sharing'] });
const annotations = actionGroup({ permission: 'crm.write', revalidate: ['/annotations', ''] });

/** Makes a shared dashboard link, as POST /sites/{site_id}/shared-links does; its URL is shown this once. */
export const createShareAction = sharing.action({
  schema: createShareBodySchema,
  input: (form) => ({ label: text(form, 'label'), password: optionalText(form, 'password') }),
  run: async ({ site, input }) => `${await publicOrigin()}${(await createSharedLink(site.id, input)).path}`,
  shownOnce: true,
});

/** Revokes a shared link, as DELETE /sites/{site_id}/shared-links/{link_id} does. */
export const revokeShareAction = sharing.idAction('link_id', ({ site }, id) => revokeSharedLink(site.id, id));

/** Adds a note on a day of the charts, as POST /sites/{site_id}/annotations does. */
export const createAnnotationAction = annotations.action({
  schema: createAnnotationBodySchema,
  input: (form) => ({ date: text(form, 'date'), text: text(form, 'text') }),
  run: async ({ site, input }) => {
    await createAnnotation(site.id, input);
  },
});

/** Deletes a note, as DELETE /sites/{site_id}/annotations/{annotation_id} does. */
export const deleteAnnotationAction = annotations.idAction('annotation_id', ({ site }, id) => removeAnnotation(site.id, id));

/**
 * The password of a shared dashboard, given on its public page: behind the sign-in's limits (per
 * address, and failures per link), it leaves a cookie that proves it for that link's page only.
 */
export const unlockShareAction = defineAction({
  access: 'anyone',
  schema: z.object({ token: z.string().max(100), password: z.string().min(1, 'Enter the password').max(200) }),
  input: (form) => ({ token: text(form, 'token'), password: text(form, 'password') }),
  run: async ({ input }) => {
    const ip = clientIpFrom((await headers()).get('x-forwarded-for'));
    const unlocked = await guardAttempt({ ip, account: `share:${input.token.slice(-12)}` }, async () => {
      const found = await unlockShare(input.token, input.password);
      if (!found) throw new ApiError('UNAUTHORIZED', 'Wrong password');
      return found;
    });
    (await cookies()).set(shareCookieName(unlocked.share.id), unlocked.proof, {
      httpOnly: true,
      sameSite: 'lax',
      secure: sessionCookie().secure,
      path: '/share',
      maxAge: 30 * 86_400,
    });
  },
  errorField: 'password',
  redirect: (_result, input) => `/share/${encodeURIComponent(input.token)}`,
});

/** Who gets the email reports and the spike alert, and how often, as PUT /sites/{site_id}/analytics/reports does. */
export const saveReportsAction = defineAction({
  permission: 'settings.manage',
  schema: reportSettingsSchema,
  input: (form) => {
    const threshold = optionalText(form, 'spike_threshold');
    return {
      frequency: optionalText(form, 'frequency') ?? 'off',
      recipients: form.getAll('recipients').filter((v): v is string => typeof v === 'string'),
      spike_threshold: threshold === undefined ? null : Number(threshold),
    };
  },
  run: async ({ site, input }) => {
    await saveReportSettings(site.id, input);
    return 'Saved.';
  },
  errorField: 'recipients',
  revalidate: () => ['/reports'],
});
