'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { deleteSite } from '@/lib/sites/deletion';
import { createSiteBodySchema, deleteSiteBodySchema, updateSiteBodySchema } from '@/lib/sites/schema';
import { createSiteOf, updateSiteOf } from '@/lib/sites/service';
import { apiErrorToForm, fieldErrors, optionalText, safeParseForm, text, type FormState } from './forms';
import { parseOriginLines } from './origin-lines';
import { requireOwnedSite, requireUser } from './session';

/** Creates a site with its optional extra allowed origins (one transaction); errors next to their fields. */
export async function createSiteAction(_prev: FormState, form: FormData): Promise<FormState> {
  const user = await requireUser();
  const values = { name: text(form, 'name'), domain: text(form, 'domain'), origins: text(form, 'origins') };
  const parsed = safeParseForm(createSiteBodySchema, { name: values.name, domain: optionalText(form, 'domain') });
  const origins = parseOriginLines(values.origins);
  if (!parsed.success || 'error' in origins) {
    const errors = parsed.success ? {} : fieldErrors(parsed.error);
    if ('error' in origins) errors.origins = origins.error;
    return { errors, values };
  }
  let site;
  try {
    site = await createSiteOf(user.id, parsed.data, origins.origins);
  } catch (error) {
    return { errors: apiErrorToForm(error), values };
  }
  redirect(`/console/sites/${site.id}`);
}

/** Renames the site and sets or clears its domain, as PATCH /api/sites/{id} does (an empty domain clears it). */
export async function updateSiteAction(siteId: string, _prev: FormState<string>, form: FormData): Promise<FormState<string>> {
  const { site } = await requireOwnedSite(siteId);
  const values = { name: text(form, 'name'), domain: text(form, 'domain') };
  const parsed = safeParseForm(updateSiteBodySchema, { name: values.name, domain: optionalText(form, 'domain') ?? null });
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  const updated = await updateSiteOf(site.id, parsed.data);
  revalidatePath(`/console/sites/${site.id}`, 'layout');
  revalidatePath('/console');
  return { values: { name: updated.name, domain: updated.domain ?? '' }, result: 'Saved.' };
}

/** Deletes the site after the typed confirmation, as DELETE /api/sites/{id} does, then shows the sites list. */
export async function deleteSiteAction(siteId: string, _prev: FormState, form: FormData): Promise<FormState> {
  const { site } = await requireOwnedSite(siteId);
  const values = { confirm: text(form, 'confirm') };
  const parsed = safeParseForm(deleteSiteBodySchema, values);
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  try {
    await deleteSite(site.id, parsed.data.confirm);
  } catch (error) {
    return { errors: apiErrorToForm(error, 'confirm'), values };
  }
  revalidatePath('/console');
  redirect(`/console?deleted=${encodeURIComponent(site.name)}`);
}
