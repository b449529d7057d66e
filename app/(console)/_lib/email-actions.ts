'use server';

import { revalidatePath } from 'next/cache';
import { isUuid } from '@/lib/core/schemas';
import { addRecipientBodySchema, verifyRecipientBodySchema } from '@/lib/email/schema';
import { addRecipient, removeRecipient, verifyRecipient } from '@/lib/email/service';
import { apiErrorToForm, fieldErrors, safeParseForm, text, type FormState } from './forms';
import { requireOwnedSite } from './session';

const emailPath = (siteId: string) => `/console/sites/${siteId}/email`;

/** Adds an address of the owner and mails it a code, as POST /api/sites/{id}/email-recipients does. */
export async function addRecipientAction(siteId: string, _prev: FormState<string>, form: FormData): Promise<FormState<string>> {
  const { site } = await requireOwnedSite(siteId);
  const values = { email: text(form, 'email') };
  const parsed = safeParseForm(addRecipientBodySchema, values);
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  try {
    const added = await addRecipient(site.id, parsed.data.email);
    revalidatePath(emailPath(site.id));
    return { result: added.email };
  } catch (error) {
    return { errors: apiErrorToForm(error, 'email'), values };
  }
}

export async function verifyRecipientAction(siteId: string, recipientId: string, _prev: FormState<string>, form: FormData): Promise<FormState<string>> {
  const { site } = await requireOwnedSite(siteId);
  if (!isUuid(recipientId)) return { errors: { form: 'Recipient not found' } };
  const values = { code: text(form, 'code') };
  const parsed = safeParseForm(verifyRecipientBodySchema, values);
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  try {
    const verified = await verifyRecipient(site.id, recipientId, parsed.data.code);
    revalidatePath(emailPath(site.id));
    return { result: verified.email };
  } catch (error) {
    return { errors: apiErrorToForm(error, 'code'), values };
  }
}

export async function removeRecipientAction(siteId: string, recipientId: string, _prev: FormState, _form: FormData): Promise<FormState> {
  const { site } = await requireOwnedSite(siteId);
  if (!isUuid(recipientId)) return { errors: { form: 'Recipient not found' } };
  try {
    await removeRecipient(site.id, recipientId);
  } catch (error) {
    return { errors: apiErrorToForm(error) };
  }
  revalidatePath(emailPath(site.id));
  return {};
}
