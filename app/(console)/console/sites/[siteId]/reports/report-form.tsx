'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import { saveReportsAction } from '@/app/(console)/_lib/share-actions';
import { Field, FormError } from '@/components/field';
import type { FormState } from '@/components/form-state';
import { SubmitButton } from '@/components/submit-button';
import type { ReportSettings } from '@/lib/analytics/reports';

export function ReportSettingsForm({
  siteId,
  settings,
  members,
  disabled,
}: {
  siteId: string;
  settings: ReportSettings;
  members: { id: string; label: string }[];
  disabled: boolean;
}) {
  const [state, action] = useActionState(forSite(saveReportsAction, siteId), {} as FormState<string>);
  return (
    <form action={action} noValidate>
      <FormError message={state.errors?.form} />
      <fieldset disabled={disabled}>
        <legend>Report</legend>
        {(['off', 'weekly', 'monthly'] as const).map((f) => (
          <label key={f} className="check">
            <input type="radio" name="frequency" value={f} defaultChecked={settings.frequency === f} />{' '}
            {f === 'off' ? 'No report' : f === 'weekly' ? 'Weekly' : 'Monthly'}
          </label>
        ))}
      </fieldset>
      <fieldset disabled={disabled}>
        <legend>Sent to</legend>
        {members.map((m) => (
          <label key={m.id} className="check">
            <input type="checkbox" name="recipients" value={m.id} defaultChecked={settings.recipients.includes(m.id)} /> {m.label}
          </label>
        ))}
        {state.errors?.recipients && <p className="form-error">{state.errors.recipients}</p>}
      </fieldset>
      <Field
        name="spike_threshold"
        label="Traffic-spike alert: visitors in 5 minutes above"
        type="number"
        inputMode="numeric"
        min={1}
        placeholder="No alert"
        hint="Leave empty for no alert."
        defaultValue={settings.spike_threshold === null ? '' : String(settings.spike_threshold)}
        error={state.errors?.spike_threshold}
        disabled={disabled}
      />
      {!disabled && (
        <>
          <p role="status" className="status">
            {state.result}
          </p>
          <SubmitButton pending="Saving…">Save</SubmitButton>
        </>
      )}
    </form>
  );
}
