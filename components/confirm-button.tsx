'use client';

import { useActionState, useRef, type ReactNode } from 'react';
import type { FormState } from '@/app/(console)/_lib/forms';
import { FormError } from './field';
import { SubmitButton } from './submit-button';

type Props = {
  /** A server action bound to what it acts on (a key, an origin). */
  action: (prev: FormState, form: FormData) => Promise<FormState>;
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
export function ConfirmButton({ action, label, subject, title, children, confirm, pending, focusAfter, id }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [state, run] = useActionState(async (prev: FormState, form: FormData) => {
    const next = await action(prev, form);
    if (!next.errors) {
      dialog.current?.close();
      document.getElementById(focusAfter)?.focus();
    }
    return next;
  }, {});
  const titleId = `${id}-title`;
  return (
    <>
      <button type="button" className="button small" onClick={() => dialog.current?.showModal()} aria-haspopup="dialog">
        {label}
        <span className="visually-hidden"> {subject}</span>
      </button>
      <dialog ref={dialog} aria-labelledby={titleId}>
        <h2 id={titleId}>{title}</h2>
        {children}
        <FormError message={state.errors?.form} />
        <form action={run}>
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
