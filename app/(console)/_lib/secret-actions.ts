'use server';

import { revalidatePath } from 'next/cache';
import { isUuid } from '@/lib/core/schemas';
import { createSecureTokenBodySchema } from '@/lib/secure-tokens/schema';
import { createSecureToken, removeSecureToken } from '@/lib/secure-tokens/service';
import { apiErrorToForm, fieldErrors, safeParseForm, text, type FormState } from './forms';
import { requireOwnedSite } from './session';

const secretsPath = (siteId: string) => `/console/sites/${siteId}/secrets`;

/** Stores a secret, as POST /api/secure-tokens does. The value is never sent back to the form, not even after an error. */
export async function addSecretAction(siteId: string, _prev: FormState<string>, form: FormData): Promise<FormState<string>> {
  const { site, user } = await requireOwnedSite(siteId);
  const shown = { type: text(form, 'type'), identifier: text(form, 'identifier') };
  const parsed = safeParseForm(createSecureTokenBodySchema, { site_id: site.id, ...shown, value: text(form, 'value') });
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values: shown };
  try {
    const created = await createSecureToken(site.id, { kind: 'session', user }, parsed.data);
    revalidatePath(secretsPath(site.id));
    return { result: created.identifier };
  } catch (error) {
    return { errors: apiErrorToForm(error, 'identifier'), values: shown };
  }
}

/** Deletes a secret, as DELETE /api/secure-tokens does. */
export async function deleteSecretAction(siteId: string, tokenId: string, _prev: FormState, _form: FormData): Promise<FormState> {
  const { site, user } = await requireOwnedSite(siteId);
  if (!isUuid(tokenId)) return { errors: { form: 'Secure token not found' } };
  try {
    await removeSecureToken(site.id, { kind: 'session', user }, tokenId);
  } catch (error) {
    return { errors: apiErrorToForm(error) };
  }
  revalidatePath(secretsPath(site.id));
  return {};
}
