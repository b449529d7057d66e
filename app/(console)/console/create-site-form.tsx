'use client';

import { ActionForm } from '@/components/action-form';
import { Field, TextAreaField, VERBATIM } from '@/components/field';
import { createSiteAction } from '../_lib/site-actions';

export function CreateSiteForm() {
  return (
    <ActionForm action={createSiteAction} submit="Create site">
      {(f) => (
        <>
          <Field {...f.field('name')} label="Name" type="text" required maxLength={200} />
          <Field
            {...f.field('domain')}
            {...VERBATIM}
            label="Domain (optional)"
            placeholder="example.com"
            hint="The shop's address: example.com, or paste its URL and the host is kept. Browsers on this domain may send tracking events without a key."
          />
          <TextAreaField
            {...f.field('origins')}
            id="field-origins"
            label="Other allowed origins (optional)"
            rows={2}
            autoCapitalize="none"
            spellCheck={false}
            placeholder="https://app.example.com"
            hint="One per line: scheme, host and port, no path. Browsers there may send tracking events too."
          />
        </>
      )}
    </ActionForm>
  );
}
