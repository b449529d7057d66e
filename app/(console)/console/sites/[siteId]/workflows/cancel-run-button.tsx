'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { cancelRunAction } from '@/app/(console)/_lib/workflow-actions';
import { ConfirmButton } from '@/components/confirm-button';

/** "Cancel run" asks for confirmation; afterwards the focus moves to the run's heading. */
export function CancelRunButton({ siteId, workflowId }: { siteId: string; workflowId: string }) {
  return (
    <ConfirmButton
      action={forSite(cancelRunAction, siteId)}
      fields={{ workflow_id: workflowId }}
      label="Cancel run"
      subject={workflowId}
      title="Cancel this run?"
      confirm="Cancel run"
      pending="Cancelling…"
      focusAfter="run-heading"
      id="cancel-run"
    >
      <p>The run stops at its next step and ends as CANCELLED. This cannot be undone.</p>
    </ConfirmButton>
  );
}
