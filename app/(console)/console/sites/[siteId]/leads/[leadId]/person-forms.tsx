'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { addNoteAction, deleteNoteAction, eraseLeadAction } from '@/app/(console)/_lib/person-actions';
import { ActionForm, TypedConfirmForm } from '@/components/action-form';
import { TextAreaField } from '@/components/field';
import { RemoveButton } from '@/components/forms/remove-button';

/** A note on the lead: it appears on the timeline, signed by the member. */
export function NoteForm({ siteId, leadId }: { siteId: string; leadId: string }) {
  return (
    <ActionForm
      action={forSite(addNoteAction, siteId)}
      hidden={{ lead_id: leadId }}
      submit="Add note"
      submitClass="button small"
      done={(message) => message}
    >
      {(f) => (
        <TextAreaField
          {...f.field('body')}
          id="note-body"
          label="New note"
          rows={3}
          maxLength={10_000}
          placeholder="What happened, what comes next…"
        />
      )}
    </ActionForm>
  );
}

export function DeleteNoteButton({ siteId, leadId, noteId }: { siteId: string; leadId: string; noteId: string }) {
  return (
    <RemoveButton
      action={forSite(deleteNoteAction, siteId)}
      target={{ lead_id: leadId, note_id: noteId }}
      verb="Delete"
      noun="note"
      subject="note"
      title="Delete this note?"
      focusAfter="timeline-heading"
    >
      The note leaves the lead’s timeline. This cannot be undone.
    </RemoveButton>
  );
}

/** The typed confirmation: the person is erased only when the lead's email was typed exactly. */
export function EraseLeadForm({ siteId, leadId, email }: { siteId: string; leadId: string; email: string }) {
  return (
    <TypedConfirmForm
      action={forSite(eraseLeadAction, siteId)}
      hidden={{ lead_id: leadId }}
      label={`Type the lead’s email, “${email}”, to confirm`}
      submit="Erase this person"
      pending="Erasing…"
    />
  );
}
