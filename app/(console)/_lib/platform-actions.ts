'use server';

import { revalidatePath } from 'next/cache';
import { isUuid } from '@/lib/core/schemas';
import { createAppBodySchema, createPlatformKeyBodySchema, type CreatedPlatformKey } from '@/lib/platform/schema';
import { createAppOf, createKeyForApp, revokeKeyOfSite } from '@/lib/platform/service';
import { apiErrorToForm, fieldErrors, optionalText, safeParseForm, text, type FormState } from './forms';
import { requireOwnedSite } from './session';

const platformPath = (siteId: string) => `/console/sites/${siteId}/platform`;

/** Registers a generated app, as POST /api/sites/{id}/platform-apps does. */
export async function createAppAction(siteId: string, _prev: FormState<string>, form: FormData): Promise<FormState<string>> {
  const { site } = await requireOwnedSite(siteId);
  const values = { name: text(form, 'name') };
  const parsed = safeParseForm(createAppBodySchema, values);
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  let app;
  try {
    app = await createAppOf(site.id, parsed.data.name);
  } catch (error) {
    return { errors: apiErrorToForm(error), values };
  }
  revalidatePath(platformPath(site.id));
  return { result: app.schema };
}

/** Creates a platform key; the full key travels back in this response only and is never stored in clear. */
export async function createPlatformKeyAction(siteId: string, _prev: FormState<CreatedPlatformKey>, form: FormData): Promise<FormState<CreatedPlatformKey>> {
  const { user, site } = await requireOwnedSite(siteId);
  const capabilities = form.getAll('capabilities');
  const values = { app_id: text(form, 'app_id'), name: text(form, 'name'), capabilities: capabilities.join(','), expirationDays: text(form, 'expirationDays') };
  const days = optionalText(form, 'expirationDays');
  const parsed = safeParseForm(createPlatformKeyBodySchema, {
    app_id: values.app_id,
    name: values.name,
    capabilities,
    expirationDays: days === undefined ? undefined : /^\s*-?\d+(\.\d+)?\s*$/.test(days) ? Number(days) : days,
  });
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  try {
    const created = await createKeyForApp(site.id, user.id, parsed.data);
    revalidatePath(platformPath(site.id));
    return { result: created };
  } catch (error) {
    return { errors: apiErrorToForm(error, 'app_id'), values };
  }
}

export async function revokePlatformKeyAction(siteId: string, keyId: string, _prev: FormState, _form: FormData): Promise<FormState> {
  const { site } = await requireOwnedSite(siteId);
  if (!isUuid(keyId)) return { errors: { form: 'Platform key not found' } };
  try {
    await revokeKeyOfSite(site.id, keyId);
  } catch (error) {
    return { errors: apiErrorToForm(error) };
  }
  revalidatePath(platformPath(site.id));
  return {};
}
