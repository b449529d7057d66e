'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import type { FormState } from '@/app/(console)/_lib/forms';
import { addNoteAction, deleteNoteAction, eraseLeadAction } from '@/app/(console)/_lib/person-actions';
import { ConfirmButton } from '@/components/confirm-button';
import { Field, FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';

/** A note on the lead: it appears on the timeline, signed by the member. */
export function NoteForm({ siteId, leadId }: { siteId: string; leadId: string }) {
  const [state, action] = useActionState(forSite(addNoteAction, siteId), {} as FormState<string>);
  const e = state.errors ?? {};
  return (
    <form action={action} noValidate>
      <FormError message={e.form ?? e.lead_id} />
      <input type="hidden" name="lead_id" value={leadId} />
      <div className="field">
        <label htmlFor="note-body">New note</label>
        <textarea
          id="note-body"
          name="body"
          rows={3}
          maxLength={10_000}
          placeholder="What happened, what comes next…"
          defaultValue={state.values?.body}
          aria-invalid={e.body ? true : undefined}
        />
        {e.body && <p className="error">{e.body}</p>}
      </div>
      <p role="status" className="status">
        {state.result}
      </p>
      <SubmitButton pending="Adding…" className="button small">
        Add note
      </SubmitButton>
    </form>
  );
}

export function DeleteNoteButton({ siteId, leadId, noteId }: { siteId: string; leadId: string; noteId: string }) {
  return (
    <ConfirmButton
      action={forSite(deleteNoteAction, siteId)}
      fields={{ lead_id: leadId, note_id: noteId }}
      label="Delete"
      subject="note"
      title="Delete this note?"
      confirm="Delete note"
      pending="Deleting…"
      focusAfter="timeline-heading"
      id={`delete-note-${noteId}`}
    >
      <p>The note leaves the lead’s timeline. This cannot be undone.</p>
    </ConfirmButton>
  );
}

/** The typed confirmation: the person is erased only when the lead's email was typed exactly. */
export function EraseLeadForm({ siteId, leadId, email }: { siteId: string; leadId: string; email: string }) {
  const [state, action] = useActionState(forSite(eraseLeadAction, siteId), {} as FormState<string>);
  return (
    <form action={action} noValidate>
      <FormError message={state.errors?.form} />
      <input type="hidden" name="lead_id" value={leadId} />
      <Field
        name="confirm"
        label={`Type the lead’s email, “${email}”, to confirm`}
        type="text"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        required
        defaultValue={state.values?.confirm}
        error={state.errors?.confirm}
      />
      <SubmitButton pending="Erasing…" className="button danger">
        Erase this person
      </SubmitButton>
    </form>
  );
}
