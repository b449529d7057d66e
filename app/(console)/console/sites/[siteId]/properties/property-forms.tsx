'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { createPropertyAction, deletePropertyAction, updatePropertyAction } from '@/app/(console)/_lib/property-actions';
import { ActionForm, type BoundField } from '@/components/action-form';
import { Field, SelectField, TextAreaField, VERBATIM } from '@/components/field';
import { RemoveButton } from '@/components/forms/remove-button';
import type { LeadProperty } from '@/lib/leads/property-schema';

const TYPES = [
  { value: 'text', label: 'Text' },
  { value: 'number', label: 'Number' },
  { value: 'date', label: 'Date' },
  { value: 'choice', label: 'Choice (one of a list)' },
];

/** The options field of a choice, one option per line (`id` unique on the page: the add and edit forms may both show). */
const OptionsField = (props: BoundField & { id: string; hint: string }) => <TextAreaField {...props} label="Options" rows={4} />;

export function AddPropertyForm({ siteId }: { siteId: string }) {
  return (
    <ActionForm
      action={forSite(createPropertyAction, siteId)}
      label="Add a property"
      submit="Add property"
      done={(label) => <>Added the property “{label}”.</>}
    >
      {(f) => (
        <>
          <div className="row">
            <Field {...f.field('label')} label="Label" type="text" required maxLength={100} placeholder="Deal size" />
            <Field
              {...f.field('key')}
              {...VERBATIM}
              label="Key"
              required
              maxLength={40}
              placeholder="deal_size"
              hint="How CSV columns, exports and filters name it: lower-case letters, digits and _. Fixed once created."
            />
            <SelectField {...f.field('type', 'text')} label="Type" options={TYPES} />
          </div>
          <OptionsField {...f.field('options')} id="field-options" hint="For a choice: one option per line. Other types take none." />
        </>
      )}
    </ActionForm>
  );
}

export function EditPropertyForm({ siteId, property }: { siteId: string; property: LeadProperty }) {
  return (
    <ActionForm
      action={forSite(updatePropertyAction, siteId)}
      hidden={{ property_id: property.property_id }}
      label={`Edit ${property.label}`}
      submit="Save property"
      done={(label) => <>Saved “{label}”.</>}
    >
      {(f) => (
        <>
          <div className="row">
            <Field {...f.field('label', property.label)} id="edit-label" label="Label" type="text" required maxLength={100} />
            <Field
              {...f.field('position', String(property.position))}
              id="edit-position"
              label="Position"
              type="number"
              inputMode="numeric"
              min={0}
              max={1000}
              hint="Properties are shown in ascending position."
            />
          </div>
          {property.type === 'choice' && (
            <OptionsField
              {...f.field('options', property.options.join('\n'))}
              id="edit-options"
              hint="One option per line. An option that leads still hold cannot be removed: change their value first."
            />
          )}
        </>
      )}
    </ActionForm>
  );
}

export function DeletePropertyButton({ siteId, property }: { siteId: string; property: LeadProperty }) {
  return (
    <RemoveButton
      action={forSite(deletePropertyAction, siteId)}
      target={{ property_id: property.property_id }}
      verb="Delete"
      noun="property"
      subject={property.label}
      title={`Delete the property “${property.label}”?`}
      focusAfter="properties-heading"
    >
      Its value is removed from every lead of the site; imports, exports and filters no longer know its key.
    </RemoveButton>
  );
}
