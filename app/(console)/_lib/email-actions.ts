'use server';

import { revalidatePath } from 'next/cache';
import { isUuid } from '@/lib/core/schemas';
import { checkSiteMailbox, configureMailbox } from '@/lib/email/inbound';
import { addRecipientBodySchema, emailSenderBodySchema, mailboxBodySchema, verifyRecipientBodySchema, type MailboxCheck } from '@/lib/email/schema';
import { addRecipient, removeRecipient, updateSender, verifyRecipient } from '@/lib/email/service';
import { apiErrorToForm, fieldErrors, optionalText, safeParseForm, text, type FormState } from './forms';
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

/** Changes the sender identity, as PUT /api/sites/{id}/email-sender does; an empty field goes back to the default. */
export async function saveSenderAction(siteId: string, _prev: FormState<string>, form: FormData): Promise<FormState<string>> {
  const { site } = await requireOwnedSite(siteId);
  const values = { from_address: text(form, 'from_address'), from_name: text(form, 'from_name'), reply_to: text(form, 'reply_to') };
  const parsed = safeParseForm(emailSenderBodySchema, {
    from_address: optionalText(form, 'from_address') ?? null,
    from_name: optionalText(form, 'from_name') ?? null,
    reply_to: optionalText(form, 'reply_to') ?? null,
  });
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  try {
    const sender = await updateSender(site.id, parsed.data);
    revalidatePath(emailPath(site.id));
    return { result: `"${sender.from_name}" <${sender.from_address}>` };
  } catch (error) {
    return { errors: apiErrorToForm(error), values };
  }
}

/** Sets up the mailbox, as PUT /api/sites/{id}/mailbox does. The password is never sent back to the form. */
export async function saveMailboxAction(siteId: string, _prev: FormState<string>, form: FormData): Promise<FormState<string>> {
  const { site, user } = await requireOwnedSite(siteId);
  const shown = { host: text(form, 'host'), port: text(form, 'port'), username: text(form, 'username'), folder: text(form, 'folder'), tls: form.get('tls') ? 'on' : '' };
  const port = Number(shown.port);
  const parsed = safeParseForm(mailboxBodySchema, {
    host: shown.host,
    port: shown.port.trim() === '' ? undefined : Number.isFinite(port) ? port : shown.port,
    tls: Boolean(form.get('tls')),
    username: shown.username,
    folder: optionalText(form, 'folder'),
    password: optionalText(form, 'password'),
  });
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values: shown };
  try {
    await configureMailbox(site.id, { kind: 'session', user }, parsed.data);
    revalidatePath(emailPath(site.id));
    return { result: 'Mailbox saved' };
  } catch (error) {
    return { errors: apiErrorToForm(error, error instanceof Error && /password/.test(error.message) ? 'password' : 'form'), values: shown };
  }
}

/** Signs in to the mailbox ("check connection"), as POST /api/sites/{id}/mailbox/check does. */
export async function checkMailboxAction(siteId: string, _prev: FormState<MailboxCheck>, _form: FormData): Promise<FormState<MailboxCheck>> {
  const { site } = await requireOwnedSite(siteId);
  try {
    const result = await checkSiteMailbox(site.id);
    revalidatePath(emailPath(site.id));
    return { result };
  } catch (error) {
    return { errors: apiErrorToForm(error) };
  }
}
