'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import type { FormState } from '@/app/(console)/_lib/forms';
import { setLeadStatusAction, updateLeadAction } from '@/app/(console)/_lib/lead-actions';
import { Field, FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';

const STATUSES = ['new', 'contacted', 'qualified', 'converted', 'lost'];

export function LeadStatusForm({ siteId, leadId, status }: { siteId: string; leadId: string; status: string }) {
  const [state, action] = useActionState(forSite(setLeadStatusAction, siteId), {} as FormState<string>);
  return (
    <form action={action} className="inline-form">
      <input type="hidden" name="lead_id" value={leadId} />
      <label htmlFor="lead-status">Status</label>
      {/* React resets a form after its action to the select's first default, not its new one: the
          key mounts it afresh with the status the page now shows (or the one refused). */}
      <select
        key={state.values?.status ?? status}
        id="lead-status"
        name="status"
        defaultValue={state.values?.status ?? status}
        style={{ width: 'auto' }}
      >
        {STATUSES.map((s) => (
          <option key={s}>{s}</option>
        ))}
      </select>
      <SubmitButton pending="Saving…" className="button small">
        Change status
      </SubmitButton>
      <span role="status" className="copy-status">
        {state.result}
      </span>
      <FormError message={state.errors?.form ?? state.errors?.status} />
    </form>
  );
}

export interface LeadValues {
  name: string;
  email: string;
  phone: string;
  company: string;
  position: string;
  notes: string;
  segment_id: string;
}

export interface PropertyField {
  key: string;
  label: string;
  type: 'text' | 'number' | 'date' | 'choice';
  options: string[];
}

/** The site's custom properties as form fields named `custom.<key>` (an emptied field clears the value). */
export function CustomPropertyFields({ properties, values, error }: { properties: PropertyField[]; values: Record<string, string>; error?: string }) {
  if (properties.length === 0) return null;
  return (
    <fieldset className="custom-properties">
      <legend>Custom properties</legend>
      <div className="row">
        {properties.map((p) =>
          p.type === 'choice' ? (
            <div className="field" key={p.key}>
              <label htmlFor={`field-custom-${p.key}`}>{p.label}</label>
              <select key={values[p.key]} id={`field-custom-${p.key}`} name={`custom.${p.key}`} defaultValue={values[p.key] ?? ''}>
                <option value="">—</option>
                {p.options.map((o) => (
                  <option key={o}>{o}</option>
                ))}
              </select>
            </div>
          ) : (
            <Field
              key={p.key}
              name={`custom.${p.key}`}
              label={p.label}
              type={p.type === 'number' ? 'text' : p.type === 'date' ? 'date' : 'text'}
              inputMode={p.type === 'number' ? 'decimal' : undefined}
              defaultValue={values[p.key] ?? ''}
            />
          ),
        )}
      </div>
      {error && <p className="error">{error}</p>}
    </fieldset>
  );
}

export function LeadEditForm({
  siteId,
  leadId,
  lead,
  segments,
  properties = [],
  custom = {},
}: {
  siteId: string;
  leadId: string;
  lead: LeadValues;
  segments: { id: string; name: string }[];
  properties?: PropertyField[];
  custom?: Record<string, string>;
}) {
  const [state, action] = useActionState(forSite(updateLeadAction, siteId), {} as FormState<string>);
  const v = { ...lead, ...state.values };
  const e = state.errors ?? {};
  return (
    <form action={action} noValidate>
      <FormError message={e.form ?? e.lead_id} />
      <input type="hidden" name="lead_id" value={leadId} />
      <div className="row">
        <Field name="name" label="Name" type="text" defaultValue={v.name} error={e.name} />
        <Field name="email" label="Email" type="email" defaultValue={v.email} error={e.email} />
      </div>
      <div className="row">
        <Field name="company" label="Company" type="text" defaultValue={v.company} error={e.company} />
        <Field name="position" label="Position" type="text" defaultValue={v.position} error={e.position} />
        <Field name="phone" label="Phone" type="text" defaultValue={v.phone} error={e.phone} />
      </div>
      <div className="field">
        <label htmlFor="field-segment_id">Segment</label>
        <select key={v.segment_id} id="field-segment_id" name="segment_id" defaultValue={v.segment_id}>
          <option value="">None</option>
          {segments.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
        {e.segment_id && <p className="error">{e.segment_id}</p>}
      </div>
      <CustomPropertyFields
        properties={properties}
        values={Object.fromEntries(properties.map((p) => [p.key, state.values?.[`custom.${p.key}`] ?? custom[p.key] ?? '']))}
        error={e.custom_properties}
      />
      <div className="field">
        <label htmlFor="field-notes">Notes</label>
        <textarea id="field-notes" name="notes" defaultValue={v.notes} aria-invalid={e.notes ? true : undefined} />
        {e.notes && <p className="error">{e.notes}</p>}
      </div>
      <p role="status" className="status">
        {state.result}
      </p>
      <SubmitButton pending="Saving…">Save lead</SubmitButton>
    </form>
  );
}
