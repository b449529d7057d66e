'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import type { FormState } from '@/app/(console)/_lib/forms';
import { createGoalAction } from '@/app/(console)/_lib/goal-actions';
import { Field, FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';

const TYPES = [
  { value: 'conversion', label: 'A conversion', hint: 'conversion events with this name, e.g. purchase' },
  { value: 'event', label: 'A custom event', hint: 'events with this name, e.g. signup' },
  { value: 'page', label: 'A page visit', hint: 'page views of this path; * matches anything, e.g. /thank-you*' },
];

export function AddGoalForm({ siteId }: { siteId: string }) {
  const [state, action] = useActionState(forSite(createGoalAction, siteId), {} as FormState<string>);
  return (
    <form action={action} noValidate aria-label="Add a goal">
      <FormError message={state.errors?.form} />
      <div className="row">
        <Field
          name="name"
          label="Name"
          type="text"
          required
          maxLength={100}
          placeholder="Purchase"
          defaultValue={state.values?.name}
          error={state.errors?.name}
        />
        <div className="field">
          <label htmlFor="field-type">Reached by</label>
          <select id="field-type" name="type" defaultValue={state.values?.type ?? 'conversion'} aria-invalid={state.errors?.type ? true : undefined}>
            {TYPES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
          {state.errors?.type && <p className="error">{state.errors.type}</p>}
        </div>
        <Field
          name="match"
          label="Event name or path"
          type="text"
          required
          maxLength={500}
          autoCapitalize="none"
          spellCheck={false}
          placeholder="purchase"
          hint={TYPES.map((t) => `${t.label}: ${t.hint}`).join('. ') + '.'}
          defaultValue={state.values?.match}
          error={state.errors?.match}
        />
      </div>
      <p role="status" className="status">
        {state.result && <>Added the goal “{state.result}”.</>}
      </p>
      <SubmitButton pending="Adding…">Add goal</SubmitButton>
    </form>
  );
}
