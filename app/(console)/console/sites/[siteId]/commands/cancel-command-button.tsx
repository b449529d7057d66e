'use client';

import { cancelCommandAction } from '@/app/(console)/_lib/command-actions';
import { forSite } from '@/app/(console)/_lib/for-site';
import { ActionButton } from '@/components/forms/action-button';

export function CancelCommandButton({ siteId, commandId }: { siteId: string; commandId: string }) {
  return (
    <ActionButton action={forSite(cancelCommandAction, siteId)} fields={{ command_id: commandId }} pending="Cancelling…">
      Cancel
    </ActionButton>
  );
}
