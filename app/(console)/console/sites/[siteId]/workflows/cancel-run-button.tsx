'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { cancelRunAction } from '@/app/(console)/_lib/workflow-actions';
import { RemoveButton } from '@/components/forms/remove-button';

/** "Cancel run" asks for confirmation; afterwards the focus moves to the run's heading. */
export function CancelRunButton({ siteId, workflowId }: { siteId: string; workflowId: string }) {
  return (
    <RemoveButton
      action={forSite(cancelRunAction, siteId)}
      target={{ workflow_id: workflowId }}
      verb="Cancel run"
      subject={workflowId}
      title="Cancel this run?"
      focusAfter="run-heading"
    >
      The run stops at its next step and ends as CANCELLED. This cannot be undone.
    </RemoveButton>
  );
}
