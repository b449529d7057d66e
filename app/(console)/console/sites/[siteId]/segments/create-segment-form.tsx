'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import type { FormState } from '@/app/(console)/_lib/forms';
import { createSegmentAction } from '@/app/(console)/_lib/segment-actions';
import { Field, FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';

export function CreateSegmentForm({ siteId }: { siteId: string }) {
  const [state, action] = useActionState(forSite(createSegmentAction, siteId), {} as FormState<string>);
  const v = state.values ?? {};
  const e = state.errors ?? {};
  return (
    // A new key after each success empties the form for the next segment.
    <form action={action} noValidate key={state.result}>
      <FormError message={e.form} />
      <div className="row">
        <Field name="name" label="Name" type="text" defaultValue={v.name} error={e.name} />
        <Field name="language" label="Language (optional)" type="text" placeholder="en" defaultValue={v.language} error={e.language} />
      </div>
      <Field
        name="audience"
        label="Audience (optional)"
        type="text"
        placeholder="Who is in it, in words"
        defaultValue={v.audience}
        error={e.audience}
      />
      <Field name="description" label="Description (optional)" type="text" defaultValue={v.description} error={e.description} />
      <p role="status" className="status">
        {state.result && `Segment “${state.result}” created.`}
      </p>
      <SubmitButton pending="Creating…">Create segment</SubmitButton>
    </form>
  );
}
