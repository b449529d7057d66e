'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import { instanceAction, type InstanceOperation } from '@/app/(console)/_lib/instance-actions';
import { ConfirmButton } from '@/components/confirm-button';
import { FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';

const CAN: Record<InstanceOperation, string[]> = {
  pause: ['running'],
  resume: ['uninstantiated', 'pending', 'paused', 'stopped', 'error'],
  stop: ['uninstantiated', 'pending', 'running', 'paused', 'error'],
};

function OperationButton({
  siteId,
  instanceId,
  name,
  operation,
  label,
  pending,
}: {
  siteId: string;
  instanceId: string;
  name: string;
  operation: InstanceOperation;
  label: string;
  pending: string;
}) {
  const [state, run] = useActionState(forSite(instanceAction, siteId), {});
  return (
    <form action={run} className="inline-form">
      <input type="hidden" name="instance_id" value={instanceId} />
      <input type="hidden" name="operation" value={operation} />
      <SubmitButton pending={pending} className="button small">
        {label}
        <span className="visually-hidden"> {name}</span>
      </SubmitButton>
      <FormError message={state.errors && (state.errors.form ?? Object.values(state.errors)[0])} />
    </form>
  );
}

/** The operations the instance's status allows: pause and resume at once, stop behind a confirmation. */
export function InstanceButtons({
  siteId,
  instanceId,
  name,
  status,
  focusAfter,
}: {
  siteId: string;
  instanceId: string;
  name: string;
  status: string;
  focusAfter: string;
}) {
  return (
    <div className="actions">
      {CAN.pause.includes(status) && (
        <OperationButton siteId={siteId} instanceId={instanceId} name={name} operation="pause" label="Pause" pending="Pausing…" />
      )}
      {CAN.resume.includes(status) && (
        <OperationButton siteId={siteId} instanceId={instanceId} name={name} operation="resume" label="Resume" pending="Starting…" />
      )}
      {CAN.stop.includes(status) && (
        <ConfirmButton
          action={forSite(instanceAction, siteId)}
          fields={{ instance_id: instanceId, operation: 'stop' }}
          label="Stop"
          subject={name}
          title="Stop this instance?"
          confirm="Stop"
          pending="Stopping…"
          focusAfter={focusAfter}
          id={`stop-${instanceId}`}
        >
          <p>The browser closes and its saved state (cookies, page) is dropped; a later resume starts a fresh browser.</p>
        </ConfirmButton>
      )}
    </div>
  );
}
