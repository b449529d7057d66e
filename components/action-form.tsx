'use client';

import { useActionState, type ReactNode } from 'react';
import { Field, FormError } from './field';
import type { FormState, StateAction } from './form-state';
import { HiddenFields } from './forms/hidden-fields';
import { pendingOf } from './forms/pending';
import { SubmitButton } from './submit-button';

/** A field's part of the form's state: its name, what was typed before a refusal (else `initial`) and its error. */
export interface BoundField {
  name: string;
  defaultValue: string | undefined;
  error: string | undefined;
}

/** What a form's fields read: the state of its last answer, and each field bound to it. */
export interface FormFields<R> {
  state: FormState<R>;
  field(name: string, initial?: string): BoundField;
}

function bindFields<R>(state: FormState<R>): FormFields<R> {
  return { state, field: (name, initial) => ({ name, defaultValue: state.values?.[name] ?? initial, error: state.errors?.[name] }) };
}

/** What an action hands back on success. */
export type ResultOf<A extends StateAction<any>> = Awaited<ReturnType<A>> extends FormState<infer R> ? R : never;

/**
 * The console's form for a server action (defineAction, bound with forSite): the posted hidden
 * fields, the form's error (an error of a hidden field is the form's: it has no input to stand
 * next to), the fields, the status line that says what a success did, and the submit button that
 * says it is working. `shown` draws what a success hands over once (a new key) above the form.
 */
export function ActionForm<A extends StateAction<any>>({
  action,
  hidden = {},
  submit,
  pending,
  done,
  shown,
  placed,
  submitClass,
  className,
  label,
  children,
}: {
  action: A;
  hidden?: Record<string, string>;
  /** The submit button's text; while the action runs it says `pending`, by default the text's verb ("Adding…"). */
  submit: string;
  pending?: string;
  /** What a success did, in the status line; without it the form has no status line. */
  done?: (result: ResultOf<A>) => ReactNode;
  shown?: (result: ResultOf<A>) => ReactNode;
  /** The fields that show their own errors, when the form knows them: an error of any other is the form's. */
  placed?: readonly string[];
  /** The submit button's classes, when it is not the form's primary button. */
  submitClass?: string;
  className?: string;
  /** The form's accessible name, where the page has several. */
  label?: string;
  children: (fields: FormFields<ResultOf<A>>) => ReactNode;
}) {
  const [state, run] = useActionState<FormState<ResultOf<A>>, FormData>(action, {});
  const errors = state.errors ?? {};
  const unplaced = placed ? Object.keys(errors).filter((name) => name !== 'form' && !placed.includes(name)) : Object.keys(hidden);
  const form = (
    <form action={run} noValidate className={className} aria-label={label}>
      <HiddenFields fields={hidden} />
      <FormError message={errors.form ?? unplaced.map((name) => errors[name]).find(Boolean)} />
      {children(bindFields(state))}
      {done && (
        <p role="status" className="status">
          {state.result !== undefined && done(state.result)}
        </p>
      )}
      <SubmitButton pending={pending ?? pendingOf(submit)} className={submitClass}>
        {submit}
      </SubmitButton>
    </form>
  );
  if (!shown) return form;
  return (
    <>
      {state.result !== undefined && shown(state.result)}
      {form}
    </>
  );
}

/**
 * What cannot be undone, confirmed by typing: the site's name, the lead's email, ERASE. The
 * action checks what was typed; the field keeps it after a refusal.
 */
export function TypedConfirmForm({
  action,
  hidden,
  label,
  capitals = false,
  submit,
  pending,
}: {
  action: StateAction<any>;
  hidden?: Record<string, string>;
  label: string;
  /** What is typed is in capitals (ERASE). */
  capitals?: boolean;
  submit: string;
  pending?: string;
}) {
  return (
    <ActionForm action={action} hidden={hidden} submit={submit} pending={pending} submitClass="button danger">
      {(f) => (
        <Field
          {...f.field('confirm')}
          label={label}
          type="text"
          autoComplete="off"
          autoCapitalize={capitals ? 'characters' : 'none'}
          spellCheck={false}
          required
        />
      )}
    </ActionForm>
  );
}
