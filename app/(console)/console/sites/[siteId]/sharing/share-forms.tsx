'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import type { FormState } from '@/app/(console)/_lib/forms';
import { createShareAction, revokeShareAction } from '@/app/(console)/_lib/share-actions';
import { ConfirmButton } from '@/components/confirm-button';
import { CopyButton } from '@/components/copy-button';
import { Field, FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';

export function CreateShareForm({ siteId }: { siteId: string }) {
  const [state, action] = useActionState(forSite(createShareAction, siteId), {} as FormState<string>);
  return (
    <form action={action} noValidate>
      <FormError message={state.errors?.form} />
      <Field
        name="label"
        label="Label"
        type="text"
        maxLength={100}
        placeholder="Investors"
        hint="Who the link is for, to tell links apart (optional)."
        defaultValue={state.values?.label}
        error={state.errors?.label}
      />
      <Field
        name="password"
        label="Password"
        type="password"
        autoComplete="new-password"
        hint="Optional, at least 8 characters: asked before the dashboard shows."
        error={state.errors?.password}
      />
      {state.result && (
        <div className="card secret" role="status" data-testid="share-url">
          <p>The link, shown this once (only a fingerprint of it is kept):</p>
          <code className="secret-value">{state.result}</code>
          <CopyButton text={state.result} label="Copy link" />
        </div>
      )}
      <SubmitButton pending="Making…">Make link</SubmitButton>
    </form>
  );
}

export function RevokeShareButton({ siteId, linkId, label }: { siteId: string; linkId: string; label: string }) {
  const subject = label || 'this link';
  return (
    <ConfirmButton
      action={forSite(revokeShareAction, siteId)}
      fields={{ link_id: linkId }}
      label="Revoke"
      subject={subject}
      title={`Revoke ${subject}?`}
      confirm="Revoke link"
      pending="Revoking…"
      focusAfter="shares-heading"
      id={`revoke-${linkId}`}
    >
      <p>Its page stops showing the dashboard at once; anyone opening it gets “not found”.</p>
    </ConfirmButton>
  );
}
