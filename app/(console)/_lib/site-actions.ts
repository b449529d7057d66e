'use server';

import { z } from 'zod';
import { deleteSite } from '@/lib/sites/deletion';
import { createSiteBodySchema, deleteSiteBodySchema, updateSiteBodySchema } from '@/lib/sites/schema';
import { createSiteOf, updateSiteOf } from '@/lib/sites/service';
import { terminateSiteRuns } from '@/lib/workflows/service';
import { defineAction } from './define-action';
import { optionalText, text } from './forms';
import { parseOriginLines } from './origin-lines';

/** The extra origins' text area: the normalized origins, or one message naming every bad line. */
const originLinesSchema = z.string().transform((value, ctx) => {
  const parsed = parseOriginLines(value);
  if ('origins' in parsed) return parsed.origins;
  ctx.addIssue({ code: 'custom', message: parsed.error });
  return z.NEVER;
});

/** Creates a site with its optional extra allowed origins (one transaction); errors next to their fields. */
export const createSiteAction = defineAction({
  access: 'user',
  schema: createSiteBodySchema.extend({ origins: originLinesSchema }),
  input: (form) => ({ name: text(form, 'name'), domain: optionalText(form, 'domain'), origins: text(form, 'origins') }),
  run: ({ user, input: { origins, ...site } }) => createSiteOf(user.id, site, origins),
  redirect: (site) => `/console/sites/${site.id}`,
});

/** Renames the site and sets or clears its domain, as PATCH /api/sites/{id} does (an empty domain clears it). */
export const updateSiteAction = defineAction({
  permission: 'settings.manage',
  schema: updateSiteBodySchema,
  input: (form) => ({ name: text(form, 'name'), domain: optionalText(form, 'domain') ?? null }),
  run: ({ site, input }) => updateSiteOf(site.id, input),
  // The name shows in the site's every page and in the list of sites.
  revalidate: () => [{ layout: '' }, '/console'],
  refill: (_values, updated) => ({ name: updated.name, domain: updated.domain ?? '' }),
});

/** Deletes the site after the typed confirmation, as DELETE /api/sites/{id} does, then shows the sites list. */
export const deleteSiteAction = defineAction({
  permission: 'site.delete',
  schema: deleteSiteBodySchema,
  input: (form) => ({ confirm: text(form, 'confirm') }),
  run: async ({ site, input }) => {
    await deleteSite(site.id, input.confirm, terminateSiteRuns);
    return site.name;
  },
  errorField: 'confirm',
  revalidate: () => ['/console'],
  redirect: (name) => `/console?deleted=${encodeURIComponent(name)}`,
});
