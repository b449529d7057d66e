'use client';

import { useActionState } from 'react';
import type { FormState } from '@/app/(console)/_lib/forms';
import { unlockShareAction } from '@/app/(console)/_lib/share-actions';
import { Field, FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';

/** The password of a shared dashboard; right, the page shows the dashboard (a cookie keeps it for this link). */
export function UnlockForm({ token }: { token: string }) {
  const [state, action] = useActionState(unlockShareAction, {} as FormState<undefined>);
  return (
    <form action={action} noValidate>
      <FormError message={state.errors?.form} />
      <input type="hidden" name="token" value={token} />
      <Field name="password" label="Password" type="password" autoComplete="current-password" required error={state.errors?.password} />
      <SubmitButton pending="Checking…">Show the dashboard</SubmitButton>
    </form>
  );
}
