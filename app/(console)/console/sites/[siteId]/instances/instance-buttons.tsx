'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { instanceAction, type InstanceOperation } from '@/app/(console)/_lib/instance-actions';
import { ActionButton } from '@/components/forms/action-button';
import { RemoveButton } from '@/components/forms/remove-button';

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
  return (
    <ActionButton action={forSite(instanceAction, siteId)} fields={{ instance_id: instanceId, operation }} pending={pending} formClass="inline-form">
      {label}
      <span className="visually-hidden"> {name}</span>
    </ActionButton>
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
        <RemoveButton
          action={forSite(instanceAction, siteId)}
          target={{ operation: 'stop', instance_id: instanceId }}
          verb="Stop"
          subject={name}
          title="Stop this instance?"
          focusAfter={focusAfter}
        >
          The browser closes and its saved state (cookies, page) is dropped; a later resume starts a fresh browser.
        </RemoveButton>
      )}
    </div>
  );
}
