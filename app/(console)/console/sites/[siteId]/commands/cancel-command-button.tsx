'use client';

import { useActionState } from 'react';
import { cancelCommandAction } from '@/app/(console)/_lib/command-actions';
import { forSite } from '@/app/(console)/_lib/for-site';
import type { FormState } from '@/app/(console)/_lib/forms';
import { FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';

export function CancelCommandButton({ siteId, commandId }: { siteId: string; commandId: string }) {
  const [state, action] = useActionState(forSite(cancelCommandAction, siteId), {} as FormState<undefined>);
  return (
    <form action={action}>
      <input type="hidden" name="command_id" value={commandId} />
      <SubmitButton pending="Cancelling…" className="button small">
        Cancel
      </SubmitButton>
      <FormError message={state.errors?.form ?? state.errors?.command_id} />
    </form>
  );
}
