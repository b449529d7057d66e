'use client';

import { useActionState } from 'react';
import {
  addRecipientAction,
  checkMailboxAction,
  composeEmailAction,
  removeRecipientAction,
  saveMailboxAction,
  saveSenderAction,
  sendAgentReplyAction,
  verifyRecipientAction,
} from '@/app/(console)/_lib/email-actions';
import { forSite } from '@/app/(console)/_lib/for-site';
import { ActionForm } from '@/components/action-form';
import { Field, FormError, TextAreaField } from '@/components/field';
import type { FormState } from '@/components/form-state';
import { RemoveButton } from '@/components/forms/remove-button';
import { SubmitButton } from '@/components/submit-button';
import type { EmailSender, Mailbox, MailboxCheck } from '@/lib/email/schema';

export function AddRecipientForm({ siteId }: { siteId: string }) {
  return (
    <ActionForm action={forSite(addRecipientAction, siteId)} submit="Send code" done={(email) => <>Code sent to {email}.</>}>
      {(f) => (
        <Field
          {...f.field('email')}
          label="Your address"
          type="email"
          autoComplete="email"
          maxLength={320}
          hint="A code is mailed to it; enter it in the address's row to verify the address."
        />
      )}
    </ActionForm>
  );
}

export function VerifyRecipientForm({ siteId, recipientId, email }: { siteId: string; recipientId: string; email: string }) {
  return (
    <ActionForm
      action={forSite(verifyRecipientAction, siteId)}
      hidden={{ recipient_id: recipientId }}
      submit="Verify"
      pending="Checking…"
      className="inline"
    >
      {(f) => (
        <Field
          {...f.field('code')}
          id={`code-${recipientId}`}
          label={`Code for ${email}`}
          type="text"
          autoComplete="one-time-code"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={20}
          placeholder="ABCD-EFGH"
        />
      )}
    </ActionForm>
  );
}

export function RemoveRecipientButton({ siteId, recipientId, email }: { siteId: string; recipientId: string; email: string }) {
  return (
    <RemoveButton
      action={forSite(removeRecipientAction, siteId)}
      target={{ recipient_id: recipientId }}
      verb="Remove"
      noun="address"
      subject={email}
      focusAfter="recipients-heading"
      id={`remove-recipient-${recipientId}`}
    >
      Keys with only email.send.test-only can no longer send to this address.
    </RemoveButton>
  );
}

export function SenderForm({ siteId, sender }: { siteId: string; sender: EmailSender & { defaults: { from_address: string; from_name: string } } }) {
  // A value equal to its default is shown as the placeholder: the field stays empty.
  const own = (value: string | null, fallback?: string) => (value === fallback ? '' : (value ?? ''));
  return (
    <ActionForm action={forSite(saveSenderAction, siteId)} submit="Save sender" done={(from) => <>Messages now come from {from}.</>}>
      {(f) => (
        <>
          <Field
            {...f.field('from_name', own(sender.from_name, sender.defaults.from_name))}
            label="Display name"
            maxLength={100}
            placeholder={sender.defaults.from_name}
            hint="Empty: the site’s name."
          />
          <Field
            {...f.field('from_address', own(sender.from_address, sender.defaults.from_address))}
            label="From address"
            type="email"
            maxLength={320}
            placeholder={sender.defaults.from_address}
            hint="Empty: the deployment’s EMAIL_FROM address. With SMTP, the server must accept it."
          />
          <Field
            {...f.field('reply_to', own(sender.reply_to))}
            label="Reply-To"
            type="email"
            maxLength={320}
            hint="Where replies go; the mailbox below brings them back to the site’s agents."
          />
        </>
      )}
    </ActionForm>
  );
}

export function MailboxForm({ siteId, mailbox }: { siteId: string; mailbox: Mailbox | null }) {
  return (
    <ActionForm action={forSite(saveMailboxAction, siteId)} submit="Save mailbox" done={(message) => message}>
      {(f) => (
        <>
          <Field {...f.field('host', mailbox?.host)} label="IMAP server" maxLength={253} required placeholder="imap.example.com" />
          <Field {...f.field('port', String(mailbox?.port ?? 993))} label="Port" type="number" min={1} max={65535} />
          <div className="field">
            <label>
              <input type="checkbox" name="tls" defaultChecked={f.state.values ? f.state.values.tls === 'on' : (mailbox?.tls ?? true)} /> TLS from the
              start (IMAPS, port 993)
            </label>
          </div>
          <Field {...f.field('username', mailbox?.username)} label="Username" maxLength={320} required autoComplete="off" />
          <Field
            {...f.field('password')}
            label="Password"
            type="password"
            autoComplete="new-password"
            maxLength={1000}
            hint={
              mailbox ? 'Leave empty to keep the stored password.' : 'Kept encrypted as the secure token mailbox.imap of the site; never shown again.'
            }
          />
          <Field {...f.field('folder', mailbox?.folder ?? 'INBOX')} label="Folder" maxLength={200} />
        </>
      )}
    </ActionForm>
  );
}

export function CheckMailboxButton({ siteId }: { siteId: string }) {
  const [state, action] = useActionState(forSite(checkMailboxAction, siteId), {} as FormState<MailboxCheck>);
  return (
    <form action={action}>
      <FormError message={state.errors?.form} />
      <p
        role="status"
        className={state.result && !state.result.ok ? 'status failed' : 'status'}
        data-mailbox-check={state.result ? (state.result.ok ? 'ok' : state.result.code) : undefined}
      >
        {state.result && (state.result.ok ? state.result.message : `${state.result.code}: ${state.result.message}`)}
      </p>
      <SubmitButton pending="Connecting…">Check connection</SubmitButton>
    </form>
  );
}

/** On a received message: sends the email agent's finished draft, or the text written here, to its sender. */
export function SendAgentReplyForm({ siteId, emailId }: { siteId: string; emailId: string }) {
  const [state, action] = useActionState(forSite(sendAgentReplyAction, siteId), {} as FormState<string>);
  return (
    <form action={action} data-answer={emailId}>
      <input type="hidden" name="email_id" value={emailId} />
      <TextAreaField name="text" id={`field-answer-${emailId}`} label="Answer (empty: the email agent’s draft)" maxLength={200_000} />
      <FormError message={state.errors?.form ?? state.errors?.text} />
      <p role="status" className="status">
        {state.result}
      </p>
      <SubmitButton pending="Sending…">Send the agent’s answer</SubmitButton>
    </form>
  );
}

/** One message to one person, from the site's sender; the form empties after a success. */
export function ComposeEmailForm({ siteId, to }: { siteId: string; to?: string }) {
  return (
    <ActionForm action={forSite(composeEmailAction, siteId)} label="Write an email" submit="Send email" done={(message) => message}>
      {(f) => (
        <>
          <Field {...f.field('to', to)} label="To" type="email" autoComplete="off" maxLength={320} />
          <Field {...f.field('subject')} id="field-compose-subject" label="Subject" type="text" maxLength={998} />
          <TextAreaField {...f.field('text')} id="field-compose-text" label="Message" rows={8} maxLength={200_000} />
        </>
      )}
    </ActionForm>
  );
}
