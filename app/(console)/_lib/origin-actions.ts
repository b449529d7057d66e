'use server';

import { revalidatePath } from 'next/cache';
import { isUuid } from '@/lib/core/schemas';
import { addSiteOrigin } from '@/lib/sites/repo';
import { addSiteOriginBodySchema } from '@/lib/sites/schema';
import { removeOrigin } from '@/lib/sites/service';
import { apiErrorToForm, fieldErrors, safeParseForm, text, type FormState } from './forms';
import { requireOwnedSite } from './session';

const originsPath = (siteId: string) => `/console/sites/${siteId}/origins`;

/** Allows one more browser origin, as POST /api/sites/{id}/origins does; a duplicate is an error on the field. */
export async function addOriginAction(siteId: string, _prev: FormState<string>, form: FormData): Promise<FormState<string>> {
  const { site } = await requireOwnedSite(siteId);
  const values = { origin: text(form, 'origin') };
  const parsed = safeParseForm(addSiteOriginBodySchema, values);
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  try {
    const added = await addSiteOrigin(site.id, parsed.data.origin);
    revalidatePath(originsPath(site.id));
    return { result: added.origin };
  } catch (error) {
    return { errors: apiErrorToForm(error, 'origin'), values };
  }
}

/** Stops allowing an origin, as DELETE /api/sites/{id}/origins/{origin_id} does. */
export async function removeOriginAction(siteId: string, originId: string, _prev: FormState, _form: FormData): Promise<FormState> {
  const { site } = await requireOwnedSite(siteId);
  if (!isUuid(originId)) return { errors: { form: 'Allowed origin not found' } };
  try {
    await removeOrigin(site.id, originId);
  } catch (error) {
    return { errors: apiErrorToForm(error) };
  }
  revalidatePath(originsPath(site.id));
  return {};
}
