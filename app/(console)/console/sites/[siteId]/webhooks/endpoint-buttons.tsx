'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import { deleteEndpointAction, pingEndpointAction } from '@/app/(console)/_lib/webhook-actions';
import type { FormState } from '@/components/form-state';
import { RemoveButton } from '@/components/forms/remove-button';
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
    <RemoveButton
      action={forSite(deleteEndpointAction, siteId)}
      target={{ endpoint_id: endpointId }}
      verb="Delete"
      noun="endpoint"
      subject={url}
      title={`Delete the endpoint ${url}?`}
      focusAfter="webhooks-heading"
    >
      No more events are sent to it; its pending deliveries are dropped.
    </RemoveButton>
  );
}
