'use client';

import { useActionState, useRef } from 'react';
import { SubmitButton } from '../../../_components/submit-button';
import { FormError } from '../../../_components/field';
import { revokeKeyAction } from '../../../_lib/key-actions';

/** "Revoke" opens a modal dialog (focus moves into it, Escape cancels); only its confirm button revokes. */
export function RevokeKeyButton({ siteId, keyId, keyName }: { siteId: string; keyId: string; keyName: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [state, action] = useActionState(revokeKeyAction.bind(null, siteId, keyId), {});
  const titleId = `revoke-title-${keyId}`;
  return (
    <>
      <button type="button" className="button small" onClick={() => dialog.current?.showModal()} aria-haspopup="dialog">
        Revoke<span className="visually-hidden"> {keyName}</span>
      </button>
      <dialog ref={dialog} aria-labelledby={titleId}>
        <h2 id={titleId}>Revoke “{keyName}”?</h2>
        <p>Requests with this key are refused from the next one on. This cannot be undone.</p>
        <FormError message={state.errors?.form} />
        <form action={action}>
          <div className="dialog-actions">
            <button type="button" className="button" onClick={() => dialog.current?.close()} autoFocus>
              Cancel
            </button>
            <SubmitButton pending="Revoking…" className="button danger">
              Revoke key
            </SubmitButton>
          </div>
        </form>
      </dialog>
    </>
  );
}
