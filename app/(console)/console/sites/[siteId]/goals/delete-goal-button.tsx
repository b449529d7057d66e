'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { deleteGoalAction } from '@/app/(console)/_lib/goal-actions';
import { ConfirmButton } from '@/components/confirm-button';

export function DeleteGoalButton({ siteId, goalId, name }: { siteId: string; goalId: string; name: string }) {
  return (
    <ConfirmButton
      action={forSite(deleteGoalAction, siteId)}
      fields={{ goal_id: goalId }}
      label="Delete"
      subject={name}
      title={`Delete the goal “${name}”?`}
      confirm="Delete goal"
      pending="Deleting…"
      focusAfter="goals-heading"
      id={`delete-goal-${goalId}`}
    >
      <p>The visits and events stay; the goal leaves the Overview and its filter.</p>
    </ConfirmButton>
  );
}
