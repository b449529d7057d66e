'use client';

import { useActionState } from 'react';
import { ConfirmButton } from '@/components/confirm-button';
import { Field, FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';
import type { FormState } from '../../../../_lib/forms';
import { addRecipientAction, removeRecipientAction, verifyRecipientAction } from '../../../../_lib/email-actions';

export function AddRecipientForm({ siteId }: { siteId: string }) {
  const [state, action] = useActionState(addRecipientAction.bind(null, siteId), {} as FormState<string>);
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
  const [state, action] = useActionState(verifyRecipientAction.bind(null, siteId, recipientId), {} as FormState<string>);
  return (
    <form action={action} noValidate className="inline">
      <FormError message={state.errors?.form} />
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
      action={removeRecipientAction.bind(null, siteId, recipientId)}
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
