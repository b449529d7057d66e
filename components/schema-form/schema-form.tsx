'use client';

import type { ReactNode } from 'react';
import { ActionForm, type ResultOf } from '@/components/action-form';
import type { StateAction } from '@/components/form-state';
import type { SchemaField } from './fields';
import { SchemaInput } from './schema-input';

/**
 * A form generated from a body schema (./fields.ts) for an action of defineAction: one
 * SchemaInput a field, with what was typed and its error after a refusal; an error of no field
 * shown (a hidden one) is the form's. `done` says what a success did.
 */
export function SchemaForm<A extends StateAction<any>>({
  action,
  fields,
  hidden = {},
  submit,
  pending,
  done,
  children,
}: {
  action: A;
  fields: SchemaField[];
  hidden?: Record<string, string>;
  submit: string;
  pending?: string;
  done: (result: ResultOf<A>) => ReactNode;
  /** Shown below the fields (a hint when there are none). */
  children?: ReactNode;
}) {
  return (
    <ActionForm action={action} hidden={hidden} placed={fields.map((f) => f.name)} submit={submit} pending={pending} done={done}>
      {({ state }) => (
        <>
          {fields.map((f) => (
            <SchemaInput key={f.name} field={f} value={state.values?.[f.name]} error={state.errors?.[f.name]} />
          ))}
          {children}
        </>
      )}
    </ActionForm>
  );
}
