'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import type { FormState } from '@/app/(console)/_lib/forms';
import { createAnnotationAction, deleteAnnotationAction } from '@/app/(console)/_lib/share-actions';
import { ConfirmButton } from '@/components/confirm-button';
import { Field, FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';

export function AddAnnotationForm({ siteId }: { siteId: string }) {
  const [state, action] = useActionState(forSite(createAnnotationAction, siteId), {} as FormState<undefined>);
  return (
    <form action={action} noValidate>
      <FormError message={state.errors?.form} />
      <Field name="date" label="Day" type="date" required defaultValue={state.values?.date} error={state.errors?.date} />
      <Field
        name="text"
        label="Note"
        type="text"
        required
        maxLength={280}
        placeholder="Newsletter sent"
        defaultValue={state.values?.text}
        error={state.errors?.text}
      />
      <SubmitButton pending="Adding…">Add annotation</SubmitButton>
    </form>
  );
}

export function DeleteAnnotationButton({ siteId, annotationId, date }: { siteId: string; annotationId: string; date: string }) {
  return (
    <ConfirmButton
      action={forSite(deleteAnnotationAction, siteId)}
      fields={{ annotation_id: annotationId }}
      label="Delete"
      subject={`the note of ${date}`}
      title={`Delete the note of ${date}?`}
      confirm="Delete note"
      pending="Deleting…"
      focusAfter="annotations-heading"
      id={`delete-${annotationId}`}
    >
      <p>Its flag leaves the chart.</p>
    </ConfirmButton>
  );
}
