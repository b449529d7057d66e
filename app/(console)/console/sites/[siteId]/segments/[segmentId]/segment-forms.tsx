'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import { deleteSegmentAction, updateSegmentAction } from '@/app/(console)/_lib/segment-actions';
import { FormError } from '@/components/field';
import type { FormState } from '@/components/form-state';
import { RemoveButton } from '@/components/forms/remove-button';
import { SubmitButton } from '@/components/submit-button';
import { SegmentFields } from '../segment-fields';

export interface SegmentValues {
  name: string;
  audience: string;
  description: string;
  language: string;
  is_active: boolean;
}

/** The segment's own fields; an emptied optional field is cleared. */
export function EditSegmentForm({ siteId, segmentId, segment }: { siteId: string; segmentId: string; segment: SegmentValues }) {
  const [state, action] = useActionState(forSite(updateSegmentAction, siteId), {} as FormState<string>);
  const v: SegmentValues = state.values
    ? {
        name: state.values.name ?? '',
        audience: state.values.audience ?? '',
        description: state.values.description ?? '',
        language: state.values.language ?? '',
        is_active: state.values.is_active === 'on',
      }
    : segment;
  const e = state.errors ?? {};
  return (
    <form action={action} noValidate>
      <FormError message={e.form ?? e.segment_id} />
      <input type="hidden" name="segment_id" value={segmentId} />
      <SegmentFields values={v} errors={e} />
      <div className="field check">
        <label>
          <input type="checkbox" name="is_active" defaultChecked={v.is_active} /> Active: agents and campaigns use this segment
        </label>
      </div>
      <p role="status" className="status">
        {state.result && 'Saved.'}
      </p>
      <SubmitButton pending="Saving…">Save segment</SubmitButton>
    </form>
  );
}

/** "Delete segment" behind a confirmation; afterwards the list of segments. */
export function DeleteSegmentButton({ siteId, segmentId, name, leads }: { siteId: string; segmentId: string; name: string; leads: number }) {
  return (
    <RemoveButton
      action={forSite(deleteSegmentAction, siteId)}
      target={{ segment_id: segmentId }}
      verb="Delete"
      label="Delete segment"
      noun="segment"
      subject={name}
      title={`Delete the segment “${name}”?`}
      focusAfter="segment-heading"
    >
      {leads === 0 ? 'No lead is in it.' : `Its ${leads === 1 ? 'lead stays' : `${leads} leads stay`}, without a segment.`} This cannot be undone.
    </RemoveButton>
  );
}
