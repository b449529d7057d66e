'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { createGoalAction } from '@/app/(console)/_lib/goal-actions';
import { ActionForm } from '@/components/action-form';
import { Field, SelectField, VERBATIM } from '@/components/field';

const TYPES = [
  { value: 'conversion', label: 'A conversion', hint: 'conversion events with this name, e.g. purchase' },
  { value: 'event', label: 'A custom event', hint: 'events with this name, e.g. signup' },
  { value: 'page', label: 'A page visit', hint: 'page views of this path; * matches anything, e.g. /thank-you*' },
];

export function AddGoalForm({ siteId }: { siteId: string }) {
  return (
    <ActionForm action={forSite(createGoalAction, siteId)} submit="Add goal" label="Add a goal" done={(name) => <>Added the goal “{name}”.</>}>
      {(f) => (
        <div className="row">
          <Field {...f.field('name')} label="Name" type="text" required maxLength={100} placeholder="Purchase" />
          <SelectField {...f.field('type', 'conversion')} label="Reached by" options={TYPES} />
          <Field
            {...f.field('match')}
            {...VERBATIM}
            label="Event name or path"
            required
            maxLength={500}
            placeholder="purchase"
            hint={TYPES.map((t) => `${t.label}: ${t.hint}`).join('. ') + '.'}
          />
        </div>
      )}
    </ActionForm>
  );
}
