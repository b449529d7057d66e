'use client';

import { useActionState, type ReactNode } from 'react';
import { FormError } from '@/components/field';
import { formMessage, type FormState, type StateAction } from '@/components/form-state';
import { SubmitButton } from '@/components/submit-button';
import { HiddenFields } from './hidden-fields';

/**
 * One button that runs a server action at once (pause, resume, cancel), posting `fields`: the ids
 * of what it acts on. A refusal is said next to it.
 */
export function ActionButton<R>({
  action,
  fields,
  pending,
  className = 'button small',
  formClass,
  children,
}: {
  action: StateAction<R>;
  fields: Record<string, string>;
  pending: string;
  /** The button's classes. */
  className?: string;
  formClass?: string;
  children: ReactNode;
}) {
  const [state, run] = useActionState(action, {} as FormState<R>);
  return (
    <form action={run} className={formClass}>
      <HiddenFields fields={fields} />
      <SubmitButton pending={pending} className={className}>
        {children}
      </SubmitButton>
      <FormError message={formMessage(state)} />
    </form>
  );
}
