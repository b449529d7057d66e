'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import type { FormState } from '@/app/(console)/_lib/forms';
import { deleteEndpointAction, pingEndpointAction } from '@/app/(console)/_lib/webhook-actions';
import { ConfirmButton } from '@/components/confirm-button';
import { SubmitButton } from '@/components/submit-button';

/** "Send a ping" queues a webhook.ping to this endpoint; the delivery shows below once attempted. */
export function PingButton({ siteId, endpointId }: { siteId: string; endpointId: string }) {
  const [state, action] = useActionState(forSite(pingEndpointAction, siteId), {} as FormState<string>);
  return (
    <form action={action} className="inline">
      <input type="hidden" name="endpoint_id" value={endpointId} />
      <SubmitButton pending="Sending…">Send a ping</SubmitButton>
      <span role="status" className="status">
        {state.result ? 'Ping queued.' : (state.errors?.form ?? state.errors?.endpoint_id ?? '')}
      </span>
    </form>
  );
}

export function DeleteEndpointButton({ siteId, endpointId, url }: { siteId: string; endpointId: string; url: string }) {
  return (
    <ConfirmButton
      action={forSite(deleteEndpointAction, siteId)}
      fields={{ endpoint_id: endpointId }}
      label="Delete"
      subject={url}
      title={`Delete the endpoint ${url}?`}
      confirm="Delete endpoint"
      pending="Deleting…"
      focusAfter="webhooks-heading"
      id={`delete-${endpointId}`}
    >
      <p>No more events are sent to it; its pending deliveries are dropped.</p>
    </ConfirmButton>
  );
}
