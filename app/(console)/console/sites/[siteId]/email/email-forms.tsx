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
import type { FormState } from '@/app/(console)/_lib/forms';
import { ConfirmButton } from '@/components/confirm-button';
import { Field, FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';
import type { EmailSender, Mailbox, MailboxCheck } from '@/lib/email/schema';

export function AddRecipientForm({ siteId }: { siteId: string }) {
  const [state, action] = useActionState(forSite(addRecipientAction, siteId), {} as FormState<string>);
  return (
    <form action={action} noValidate>
      <FormError message={state.errors?.form} />
      <Field
        name="email"
        label="Your address"
        type="email"
        autoComplete="email"
        maxLength={320}
        defaultValue={state.values?.email}
        error={state.errors?.email}
        hint="A code is mailed to it; enter it in the address's row to verify the address."
      />
      <p role="status" className="status">
        {state.result && <>Code sent to {state.result}.</>}
      </p>
      <SubmitButton pending="Sending…">Send code</SubmitButton>
    </form>
  );
}

export function VerifyRecipientForm({ siteId, recipientId, email }: { siteId: string; recipientId: string; email: string }) {
  const [state, action] = useActionState(forSite(verifyRecipientAction, siteId), {} as FormState<string>);
  return (
    <form action={action} noValidate className="inline">
      <input type="hidden" name="recipient_id" value={recipientId} />
      <FormError message={state.errors?.form ?? state.errors?.recipient_id} />
      <Field
        name="code"
        id={`code-${recipientId}`}
        label={`Code for ${email}`}
        type="text"
        autoComplete="one-time-code"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={20}
        placeholder="ABCD-EFGH"
        defaultValue={state.values?.code}
        error={state.errors?.code}
      />
      <SubmitButton pending="Checking…">Verify</SubmitButton>
    </form>
  );
}

export function RemoveRecipientButton({ siteId, recipientId, email }: { siteId: string; recipientId: string; email: string }) {
  return (
    <ConfirmButton
      action={forSite(removeRecipientAction, siteId)}
      fields={{ recipient_id: recipientId }}
      label="Remove"
      subject={email}
      title={`Remove ${email}?`}
      confirm="Remove address"
      pending="Removing…"
      focusAfter="recipients-heading"
      id={`remove-recipient-${recipientId}`}
    >
      <p>Keys with only email.send.test-only can no longer send to this address.</p>
    </ConfirmButton>
  );
}

export function SenderForm({ siteId, sender }: { siteId: string; sender: EmailSender & { defaults: { from_address: string; from_name: string } } }) {
  const [state, action] = useActionState(forSite(saveSenderAction, siteId), {} as FormState<string>);
  const value = (name: 'from_address' | 'from_name' | 'reply_to', stored: string | null) => state.values?.[name] ?? stored ?? '';
  return (
    <form action={action} noValidate>
      <FormError message={state.errors?.form} />
      <Field
        name="from_name"
        label="Display name"
        maxLength={100}
        placeholder={sender.defaults.from_name}
        defaultValue={value('from_name', sender.from_name === sender.defaults.from_name ? null : sender.from_name)}
        error={state.errors?.from_name}
        hint="Empty: the site’s name."
      />
      <Field
        name="from_address"
        label="From address"
        type="email"
        maxLength={320}
        placeholder={sender.defaults.from_address}
        defaultValue={value('from_address', sender.from_address === sender.defaults.from_address ? null : sender.from_address)}
        error={state.errors?.from_address}
        hint="Empty: the deployment’s EMAIL_FROM address. With SMTP, the server must accept it."
      />
      <Field
        name="reply_to"
        label="Reply-To"
        type="email"
        maxLength={320}
        defaultValue={value('reply_to', sender.reply_to)}
        error={state.errors?.reply_to}
        hint="Where replies go; the mailbox below brings them back to the site’s agents."
      />
      <p role="status" className="status">
        {state.result && <>Messages now come from {state.result}.</>}
      </p>
      <SubmitButton pending="Saving…">Save sender</SubmitButton>
    </form>
  );
}

export function MailboxForm({ siteId, mailbox }: { siteId: string; mailbox: Mailbox | null }) {
  const [state, action] = useActionState(forSite(saveMailboxAction, siteId), {} as FormState<string>);
  const v = state.values;
  return (
    <form action={action} noValidate>
      <FormError message={state.errors?.form} />
      <Field
        name="host"
        label="IMAP server"
        maxLength={253}
        required
        defaultValue={v?.host ?? mailbox?.host}
        error={state.errors?.host}
        placeholder="imap.example.com"
      />
      <Field name="port" label="Port" type="number" min={1} max={65535} defaultValue={v?.port ?? mailbox?.port ?? 993} error={state.errors?.port} />
      <div className="field">
        <label>
          <input type="checkbox" name="tls" defaultChecked={v ? v.tls === 'on' : (mailbox?.tls ?? true)} /> TLS from the start (IMAPS, port 993)
        </label>
      </div>
      <Field
        name="username"
        label="Username"
        maxLength={320}
        required
        autoComplete="off"
        defaultValue={v?.username ?? mailbox?.username}
        error={state.errors?.username}
      />
      <Field
        name="password"
        label="Password"
        type="password"
        autoComplete="new-password"
        maxLength={1000}
        error={state.errors?.password}
        hint={
          mailbox ? 'Leave empty to keep the stored password.' : 'Kept encrypted as the secure token mailbox.imap of the site; never shown again.'
        }
      />
      <Field name="folder" label="Folder" maxLength={200} defaultValue={v?.folder ?? mailbox?.folder ?? 'INBOX'} error={state.errors?.folder} />
      <p role="status" className="status">
        {state.result}
      </p>
      <SubmitButton pending="Saving…">Save mailbox</SubmitButton>
    </form>
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
  const id = `field-answer-${emailId}`;
  return (
    <form action={action} data-answer={emailId}>
      <input type="hidden" name="email_id" value={emailId} />
      <div className="field">
        <label htmlFor={id}>Answer (empty: the email agent’s draft)</label>
        <textarea id={id} name="text" maxLength={200_000} />
      </div>
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
  const [state, action] = useActionState(forSite(composeEmailAction, siteId), {} as FormState<string>);
  const v = state.values ?? { to: to ?? '' };
  const e = state.errors ?? {};
  return (
    <form action={action} noValidate key={state.result} aria-label="Write an email">
      <FormError message={e.form} />
      <Field name="to" label="To" type="email" autoComplete="off" maxLength={320} defaultValue={v.to} error={e.to} />
      <Field id="field-compose-subject" name="subject" label="Subject" type="text" maxLength={998} defaultValue={v.subject} error={e.subject} />
      <div className="field">
        <label htmlFor="field-compose-text">Message</label>
        <textarea
          id="field-compose-text"
          name="text"
          rows={8}
          maxLength={200_000}
          defaultValue={v.text}
          aria-invalid={e.text ? true : undefined}
          aria-describedby={e.text ? 'field-compose-text-error' : undefined}
        />
        {e.text && (
          <p className="error" id="field-compose-text-error">
            {e.text}
          </p>
        )}
      </div>
      <p role="status" className="status">
        {state.result}
      </p>
      <SubmitButton pending="Sending…">Send email</SubmitButton>
    </form>
  );
}
