'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import { updateEndpointAction } from '@/app/(console)/_lib/webhook-actions';
import { Field, FormError } from '@/components/field';
import type { FormState } from '@/components/form-state';
import { CheckGroup } from '@/components/kit/check-group';
import { SubmitButton } from '@/components/submit-button';

/** An endpoint's events, description and on/off, behind "Edit" in its row. */
export function EditEndpointForm({
  siteId,
  endpoint,
  eventTypes,
}: {
  siteId: string;
  endpoint: { id: string; url: string; events: string[]; description: string | null; active: boolean };
  eventTypes: readonly string[];
}) {
  const [state, action] = useActionState(forSite(updateEndpointAction, siteId), {} as FormState<string>);
  const values = state.values;
  return (
    <details className="edit-endpoint">
      <summary>
        Edit<span className="visually-hidden"> {endpoint.url}</span>
      </summary>
      <form action={action} noValidate aria-label={`Edit ${endpoint.url}`}>
        <FormError message={state.errors?.form ?? state.errors?.endpoint_id} />
        <input type="hidden" name="endpoint_id" value={endpoint.id} />
        <CheckGroup
          name="events"
          legend="Events"
          options={eventTypes.map((type) => ({ value: type, label: <span className="mono">{type}</span> }))}
          values={values}
          initially={(type) => endpoint.events.includes(type)}
          error={state.errors?.events}
        />
        <Field
          id={`description-${endpoint.id}`}
          name="description"
          label="Description"
          type="text"
          maxLength={500}
          defaultValue={values ? values.description : (endpoint.description ?? '')}
          error={state.errors?.description}
        />
        <div className="field check">
          <label>
            <input type="checkbox" name="active" defaultChecked={values ? values.active === 'on' : endpoint.active} /> Active: receives events
          </label>
        </div>
        <p role="status" className="status">
          {state.result}
        </p>
        <SubmitButton pending="Saving…" className="button small">
          Save endpoint
        </SubmitButton>
      </form>
    </details>
  );
}
