'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import { setLeadStatusAction, updateLeadAction } from '@/app/(console)/_lib/lead-actions';
import { ActionForm } from '@/components/action-form';
import { Field, FormError, SelectField, TextAreaField } from '@/components/field';
import type { FormState } from '@/components/form-state';
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
            <SelectField
              key={p.key}
              id={`field-custom-${p.key}`}
              name={`custom.${p.key}`}
              label={p.label}
              options={[{ value: '', label: '—' }, ...p.options.map((o) => ({ value: o }))]}
              defaultValue={values[p.key] ?? ''}
            />
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
  return (
    <ActionForm action={forSite(updateLeadAction, siteId)} hidden={{ lead_id: leadId }} submit="Save lead" done={(message) => message}>
      {(f) => (
        <>
          <div className="row">
            <Field {...f.field('name', lead.name)} label="Name" type="text" />
            <Field {...f.field('email', lead.email)} label="Email" type="email" />
          </div>
          <div className="row">
            <Field {...f.field('company', lead.company)} label="Company" type="text" />
            <Field {...f.field('position', lead.position)} label="Position" type="text" />
            <Field {...f.field('phone', lead.phone)} label="Phone" type="text" />
          </div>
          <SelectField
            {...f.field('segment_id', lead.segment_id)}
            label="Segment"
            options={[{ value: '', label: 'None' }, ...segments.map((s) => ({ value: s.id, label: s.name }))]}
          />
          <CustomPropertyFields
            properties={properties}
            values={Object.fromEntries(properties.map((p) => [p.key, f.state.values?.[`custom.${p.key}`] ?? custom[p.key] ?? '']))}
            error={f.state.errors?.custom_properties}
          />
          <TextAreaField {...f.field('notes', lead.notes)} label="Notes" />
        </>
      )}
    </ActionForm>
  );
}
