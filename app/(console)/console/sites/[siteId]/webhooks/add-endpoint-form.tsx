'use client';

import { useActionState, useEffect, useRef, useState } from 'react';
import { CopyButton } from '@/components/copy-button';
import { Field, FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';
import type { FormState } from '../../../../_lib/forms';
import { createEndpointAction, type CreatedEndpointResult } from '../../../../_lib/webhook-actions';

export function AddEndpointForm({ siteId, eventTypes }: { siteId: string; eventTypes: readonly string[] }) {
  const [state, action] = useActionState(createEndpointAction.bind(null, siteId), {} as FormState<CreatedEndpointResult>);
  const created = state.result;
  const [dismissed, setDismissed] = useState<string | null>(null);
  const shown = created && dismissed !== created.id ? created : null;
  const heading = useRef<HTMLHeadingElement>(null);
  const checked = (type: string) => (state.values ? (state.values.events ?? '').split(',').includes(type) : type.startsWith('workflow.'));
  useEffect(() => {
    if (shown) heading.current?.focus();
  }, [shown]);

  return (
    <>
      {shown && (
        <div className="card secret" role="region" aria-labelledby="new-secret-heading">
          <h3 id="new-secret-heading" ref={heading} tabIndex={-1}>
            Signing secret of <span className="mono">{shown.url}</span>
          </h3>
          <p>
            <strong>Copy it now: you will not see it again.</strong> Verify each delivery&apos;s <span className="mono">webhook-signature</span>{' '}
            with it (Standard Webhooks); rotate it through the API if it leaks.
          </p>
          <code className="secret-value" data-testid="new-webhook-secret">
            {shown.secret}
          </code>
          <div className="row">
            <CopyButton text={shown.secret} label="Copy secret" />
            <button type="button" className="button link" onClick={() => setDismissed(shown.id)}>
              I have stored it, hide the secret
            </button>
          </div>
        </div>
      )}
      <form action={action} noValidate>
        <FormError message={state.errors?.form} />
        <Field
          name="url"
          label="Endpoint URL"
          type="text"
          inputMode="url"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={2048}
          required
          placeholder="https://hooks.example.com/site-growth"
          hint="https, at a public address."
          defaultValue={state.values?.url}
          error={state.errors?.url}
        />
        <Field name="description" label="Description" type="text" maxLength={500} defaultValue={state.values?.description} error={state.errors?.description} />
        <fieldset aria-describedby={state.errors?.events ? 'events-error' : undefined}>
          <legend>Events</legend>
          <div className="checks">
            {eventTypes.map((type) => (
              <label key={type}>
                <input type="checkbox" name="events" value={type} defaultChecked={checked(type)} /> <span className="mono">{type}</span>
              </label>
            ))}
          </div>
          {state.errors?.events && (
            <p className="error" id="events-error">
              {state.errors.events}
            </p>
          )}
        </fieldset>
        <SubmitButton pending="Adding…">Add endpoint</SubmitButton>
      </form>
    </>
  );
}
