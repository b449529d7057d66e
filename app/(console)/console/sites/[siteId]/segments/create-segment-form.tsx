'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import { createSegmentAction } from '@/app/(console)/_lib/segment-actions';
import { FormError } from '@/components/field';
import type { FormState } from '@/components/form-state';
import { SubmitButton } from '@/components/submit-button';
import { SegmentFields } from './segment-fields';

export function CreateSegmentForm({ siteId }: { siteId: string }) {
  const [state, action] = useActionState(forSite(createSegmentAction, siteId), {} as FormState<string>);
  const v = state.values ?? {};
  const e = state.errors ?? {};
  return (
    // A new key after each success empties the form for the next segment.
    <form action={action} noValidate key={state.result}>
      <FormError message={e.form} />
      <SegmentFields values={v} errors={e} />
      <p role="status" className="status">
        {state.result && `Segment “${state.result}” created.`}
      </p>
      <SubmitButton pending="Creating…">Create segment</SubmitButton>
    </form>
  );
}
