'use client';

import { useActionState, type ReactNode } from 'react';
import type { FormState } from '@/app/(console)/_lib/forms';
import type { SchemaField } from '@/app/(console)/_lib/schema-form';
import { FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';
import { SchemaInput } from './schema-input';

/**
 * A form generated from a body schema (app/(console)/_lib/schema-form.ts) for an action of
 * defineAction: one SchemaInput a field, with what was typed and its error after a refusal; an
 * error of no field shown (a hidden one) is the form's. `done` says what a success did.
 */
export function SchemaForm<R>({
  action,
  fields,
  hidden = {},
  submit,
  pending,
  done,
  children,
}: {
  action: (prev: FormState<R>, form: FormData) => Promise<FormState<R>>;
  fields: SchemaField[];
  hidden?: Record<string, string>;
  submit: ReactNode;
  pending: string;
  done: (result: R) => ReactNode;
  /** Shown below the fields (a hint when there are none). */
  children?: ReactNode;
}) {
  const [state, run] = useActionState(action, {} as FormState<R>);
  const e = state.errors ?? {};
  const unplaced = Object.entries(e).find(([name]) => name !== 'form' && !fields.some((f) => f.name === name))?.[1];
  return (
    <form action={run} noValidate>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <FormError message={e.form ?? unplaced} />
      {fields.map((f) => (
        <SchemaInput key={f.name} field={f} value={state.values?.[f.name]} error={e[f.name]} />
      ))}
      {children}
      <p role="status" className="status">
        {state.result !== undefined && done(state.result)}
      </p>
      <SubmitButton pending={pending}>{submit}</SubmitButton>
    </form>
  );
}
