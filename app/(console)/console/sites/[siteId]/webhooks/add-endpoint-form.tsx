'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import type { FormState } from '@/app/(console)/_lib/forms';
import { createEndpointAction, type CreatedEndpointResult } from '@/app/(console)/_lib/webhook-actions';
import { Field, FormError } from '@/components/field';
import { CheckGroup } from '@/components/kit/check-group';
import { ShownOnce } from '@/components/kit/shown-once';
import { SubmitButton } from '@/components/submit-button';

export function AddEndpointForm({ siteId, eventTypes }: { siteId: string; eventTypes: readonly string[] }) {
  const [state, action] = useActionState(forSite(createEndpointAction, siteId), {} as FormState<CreatedEndpointResult>);
  return (
    <>
      {state.result && (
        <ShownOnce
          id={state.result.id}
          value={state.result.secret}
          title={
            <>
              Signing secret of <span className="mono">{state.result.url}</span>
            </>
          }
          noun="secret"
          testId="new-webhook-secret"
          headingId="new-secret-heading"
        >
          Verify each delivery&apos;s <span className="mono">webhook-signature</span> with it (Standard Webhooks); rotate it through the API if it
          leaks.
        </ShownOnce>
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
        <Field
          name="description"
          label="Description"
          type="text"
          maxLength={500}
          defaultValue={state.values?.description}
          error={state.errors?.description}
        />
        <CheckGroup
          name="events"
          legend="Events"
          options={eventTypes.map((type) => ({ value: type, label: <span className="mono">{type}</span> }))}
          values={state.values}
          initially={(type) => type.startsWith('workflow.')}
          error={state.errors?.events}
        />
        <SubmitButton pending="Adding…">Add endpoint</SubmitButton>
      </form>
    </>
  );
}
