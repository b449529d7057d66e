'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { deleteGoalAction } from '@/app/(console)/_lib/goal-actions';
import { RemoveButton } from '@/components/forms/remove-button';

export function DeleteGoalButton({ siteId, goalId, name }: { siteId: string; goalId: string; name: string }) {
  return (
    <RemoveButton
      action={forSite(deleteGoalAction, siteId)}
      target={{ goal_id: goalId }}
      verb="Delete"
      noun="goal"
      subject={name}
      title={`Delete the goal “${name}”?`}
      focusAfter="goals-heading"
    >
      The visits and events stay; the goal leaves the Overview and its filter.
    </RemoveButton>
  );
}
