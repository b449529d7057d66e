'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { createEndpointAction } from '@/app/(console)/_lib/webhook-actions';
import { ActionForm } from '@/components/action-form';
import { Field, VERBATIM } from '@/components/field';
import { CheckGroup } from '@/components/kit/check-group';
import { ShownOnce } from '@/components/kit/shown-once';

export function AddEndpointForm({ siteId, eventTypes }: { siteId: string; eventTypes: readonly string[] }) {
  return (
    <ActionForm
      action={forSite(createEndpointAction, siteId)}
      submit="Add endpoint"
      shown={(endpoint) => (
        <ShownOnce
          id={endpoint.id}
          value={endpoint.secret}
          title={
            <>
              Signing secret of <span className="mono">{endpoint.url}</span>
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
    >
      {(f) => (
        <>
          <Field
            {...f.field('url')}
            {...VERBATIM}
            label="Endpoint URL"
            inputMode="url"
            maxLength={2048}
            required
            placeholder="https://hooks.example.com/site-growth"
            hint="https, at a public address."
          />
          <Field {...f.field('description')} label="Description" type="text" maxLength={500} />
          <CheckGroup
            name="events"
            legend="Events"
            options={eventTypes.map((type) => ({ value: type, label: <span className="mono">{type}</span> }))}
            values={f.state.values}
            initially={(type) => type.startsWith('workflow.')}
            error={f.state.errors?.events}
          />
        </>
      )}
    </ActionForm>
  );
}
