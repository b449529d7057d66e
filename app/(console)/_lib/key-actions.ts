'use server';

import { revalidatePath } from 'next/cache';
import { createKeyBodySchema, type CreatedKey } from '@/lib/keys/schema';
import { isUuid } from '@/lib/core/schemas';
import { createKeyForUser, revokeKeyForUser } from '@/lib/keys/service';
import { apiErrorToForm, fieldErrors, optionalText, safeParseForm, text, type FormState } from './forms';
import { requireOwnedSite } from './session';

const keysPath = (siteId: string) => `/console/sites/${siteId}/keys`;

/** Creates a key; the full key travels back in this response only and is never stored in clear. */
export async function createKeyAction(siteId: string, _prev: FormState<CreatedKey>, form: FormData): Promise<FormState<CreatedKey>> {
  const { user, site } = await requireOwnedSite(siteId);
  const scopes = form.getAll('scopes');
  const values = {
    name: text(form, 'name'),
    scopes: scopes.join(','),
    expirationDays: text(form, 'expirationDays'),
    prefix: text(form, 'prefix'),
  };
  const days = optionalText(form, 'expirationDays');
  const parsed = safeParseForm(createKeyBodySchema, {
    name: values.name,
    scopes,
    site_id: site.id,
    expirationDays: days === undefined ? undefined : /^\s*-?\d+(\.\d+)?\s*$/.test(days) ? Number(days) : days,
    prefix: optionalText(form, 'prefix'),
  });
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  let created;
  try {
    created = await createKeyForUser(user, site.id, parsed.data);
  } catch (error) {
    return { errors: apiErrorToForm(error), values };
  }
  revalidatePath(keysPath(site.id));
  // The next key usually shares the prefix, scopes and expiry: only the name starts empty again.
  return { result: created, values: { ...values, name: '' } };
}

export async function revokeKeyAction(siteId: string, keyId: string, _prev: FormState, _form: FormData): Promise<FormState> {
  const { user, site } = await requireOwnedSite(siteId);
  if (!isUuid(keyId)) return { errors: { form: 'API key not found' } };
  try {
    await revokeKeyForUser(user, site.id, keyId);
  } catch (error) {
    return { errors: apiErrorToForm(error) };
  }
  revalidatePath(keysPath(site.id));
  return {};
}
