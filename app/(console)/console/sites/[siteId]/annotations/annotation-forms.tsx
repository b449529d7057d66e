'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { createAnnotationAction, deleteAnnotationAction } from '@/app/(console)/_lib/share-actions';
import { ActionForm } from '@/components/action-form';
import { Field } from '@/components/field';
import { RemoveButton } from '@/components/forms/remove-button';

export function AddAnnotationForm({ siteId }: { siteId: string }) {
  return (
    <ActionForm action={forSite(createAnnotationAction, siteId)} submit="Add annotation">
      {(f) => (
        <>
          <Field {...f.field('date')} label="Day" type="date" required />
          <Field {...f.field('text')} label="Note" type="text" required maxLength={280} placeholder="Newsletter sent" />
        </>
      )}
    </ActionForm>
  );
}

export function DeleteAnnotationButton({ siteId, annotationId, date }: { siteId: string; annotationId: string; date: string }) {
  return (
    <RemoveButton
      action={forSite(deleteAnnotationAction, siteId)}
      target={{ annotation_id: annotationId }}
      verb="Delete"
      noun="note"
      subject={`the note of ${date}`}
      focusAfter="annotations-heading"
    >
      Its flag leaves the chart.
    </RemoveButton>
  );
}
