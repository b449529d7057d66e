'use client';

import { useActionState, useRef, type ReactNode } from 'react';
import { formMessage, type FormState, type StateAction } from '@/components/form-state';
import { HiddenFields } from '@/components/forms/hidden-fields';
import { FormError } from './field';
import { SubmitButton } from './submit-button';

type Props<R> = {
  /** A server action (bound to the site), run with `fields`: what it acts on (a key's id). */
  action: StateAction<R>;
  fields: Record<string, string>;
  /** The button's text, and the name of the thing for screen readers ("Revoke" + " Checkout server"). */
  label: string;
  subject: string;
  title: string;
  children: ReactNode;
  confirm: string;
  pending: string;
  /** Id of an element (with tabIndex -1) that takes the focus once the action succeeded: the button itself goes away. */
  focusAfter: string;
  /** Unique among the page's dialogs. */
  id: string;
};

/**
 * A destructive action behind a confirmation: the button opens a modal dialog (focus moves into it,
 * Escape cancels); only its confirm button runs the action. On success the dialog closes and the focus
 * moves to `focusAfter`, since the row that held the button is re-rendered without it.
 */
export function ConfirmButton<R>({ action, fields, label, subject, title, children, confirm, pending, focusAfter, id }: Props<R>) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [state, run] = useActionState(async (prev: FormState<R>, form: FormData) => {
    const next = await action(prev, form);
    if (!next.errors) {
      dialog.current?.close();
      document.getElementById(focusAfter)?.focus();
    }
    return next;
  }, {} as FormState<R>);
  // Without JavaScript the dialog cannot open: the same confirmation is a disclosure whose form
  // posts the server action itself (the page comes back with the change, or with the error).
  const [fallback, runFallback] = useActionState(action, {} as FormState<R>);
  const titleId = `${id}-title`;
  const fallbackError = formMessage(fallback);
  return (
    <>
      <noscript>
        <style>{`[id="${id}-open"]{display:none}`}</style>
        <details className="confirm-fallback" open={Boolean(fallbackError)}>
          <summary className="button small">
            {label}
            <span className="visually-hidden"> {subject}</span>
          </summary>
          <div className="confirm-fallback-body">
            <strong>{title}</strong>
            {children}
            <FormError message={fallbackError} />
            <form action={runFallback}>
              <HiddenFields fields={fields} />
              <button type="submit" className="button danger">
                {confirm}
              </button>
            </form>
          </div>
        </details>
      </noscript>
      <button type="button" id={`${id}-open`} className="button small" onClick={() => dialog.current?.showModal()} aria-haspopup="dialog">
        {label}
        <span className="visually-hidden"> {subject}</span>
      </button>
      <dialog ref={dialog} aria-labelledby={titleId}>
        <h2 id={titleId}>{title}</h2>
        {children}
        {/* The fields are hidden: any error is the form's. */}
        <FormError message={formMessage(state)} />
        <form action={run}>
          <HiddenFields fields={fields} />
          <div className="dialog-actions">
            <button type="button" className="button" onClick={() => dialog.current?.close()} autoFocus>
              Cancel
            </button>
            <SubmitButton pending={pending} className="button danger">
              {confirm}
            </SubmitButton>
          </div>
        </form>
      </dialog>
    </>
  );
}
