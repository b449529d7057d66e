'use server';

import { z } from 'zod';
import { uuidSchema } from '@/lib/core/schemas';
import { sendAgentReply } from '@/lib/email/agent-reply';
import { checkSiteMailbox, configureMailbox } from '@/lib/email/inbound';
import {
  addRecipientBodySchema,
  agentReplyBodySchema,
  composeEmailBodySchema,
  emailSenderBodySchema,
  mailboxBodySchema,
  verifyRecipientBodySchema,
} from '@/lib/email/schema';
import { addRecipient, composeEmail, removeRecipient, updateSender, verifyRecipient } from '@/lib/email/service';
import { actionGroup } from './define-action';
import { optionalNumber, optionalText, text } from './forms';
import { publicOrigin } from './request-origin';

const recipientSchema = z.object({ recipient_id: uuidSchema });

const email = actionGroup({ permission: 'settings.manage', revalidate: ['/email'] });

/** Adds an address of the owner and mails it a code, as POST /api/sites/{id}/email-recipients does. */
export const addRecipientAction = email.action({
  schema: addRecipientBodySchema,
  input: (form) => ({ email: text(form, 'email') }),
  run: async ({ site, input }) => (await addRecipient(site.id, input.email)).email,
  errorField: 'email',
});

export const verifyRecipientAction = email.action({
  schema: recipientSchema.extend(verifyRecipientBodySchema.shape),
  input: (form) => ({ recipient_id: text(form, 'recipient_id'), code: text(form, 'code') }),
  run: async ({ site, input }) => (await verifyRecipient(site.id, input.recipient_id, input.code)).email,
  errorField: 'code',
});

export const removeRecipientAction = email.idAction('recipient_id', ({ site }, id) => removeRecipient(site.id, id));

/** Changes the sender identity, as PUT /api/sites/{id}/email-sender does; an empty field goes back to the default. */
export const saveSenderAction = email.action({
  schema: emailSenderBodySchema,
  input: (form) => ({
    from_address: optionalText(form, 'from_address') ?? null,
    from_name: optionalText(form, 'from_name') ?? null,
    reply_to: optionalText(form, 'reply_to') ?? null,
  }),
  run: async ({ site, input }) => {
    const sender = await updateSender(site.id, input);
    return `"${sender.from_name}" <${sender.from_address}>`;
  },
});

/** Sets up the mailbox, as PUT /api/sites/{id}/mailbox does. The password is never sent back to the form. */
export const saveMailboxAction = email.action({
  schema: mailboxBodySchema,
  input: (form) => ({
    host: text(form, 'host'),
    port: optionalNumber(form, 'port'),
    tls: Boolean(form.get('tls')),
    username: text(form, 'username'),
    folder: optionalText(form, 'folder'),
    password: optionalText(form, 'password'),
  }),
  run: async ({ user, site, input }) => {
    await configureMailbox(site.id, { kind: 'session', user }, input);
    return 'Mailbox saved';
  },
  errorField: (error) => (/password/.test(error.message) ? 'password' : 'form'),
});

/** Signs in to the mailbox ("check connection"), as POST /api/sites/{id}/mailbox/check does. */
export const checkMailboxAction = email.action({
  shownOnce: true,
  permission: 'crm.write',
  schema: z.object({}),
  run: ({ site }) => checkSiteMailbox(site.id),
});

/** Sends the email agent's answer (or the text given) to a received message, as POST /api/sites/{id}/emails/{email_id}/reply does. */
export const sendAgentReplyAction = email.action({
  permission: 'crm.write',
  schema: z.object({ email_id: uuidSchema }).extend(agentReplyBodySchema.shape),
  input: (form) => ({ email_id: text(form, 'email_id'), text: optionalText(form, 'text') }),
  run: async ({ site, input }) => {
    const sent = await sendAgentReply(site.id, input.email_id, { text: input.text }, await publicOrigin());
    return `Sent to ${sent.to.join(', ')}`;
  },
  errorField: 'form',
});

/** Sends one message the owner wrote, from the site's sender (a suppressed address is refused next to "To"). */
export const composeEmailAction = email.action({
  permission: 'crm.write',
  schema: composeEmailBodySchema,
  input: (form) => ({ to: text(form, 'to'), subject: text(form, 'subject'), text: text(form, 'text') }),
  errorField: (error) => (error.code === 'UNPROCESSABLE' ? 'to' : 'form'),
  run: async ({ site, input }) => {
    const sent = await composeEmail(site.id, input, await publicOrigin());
    return sent.status === 'stored' ? `Kept in the outbox for ${input.to} (no SMTP server is configured).` : `Sent to ${input.to}.`;
  },
});
