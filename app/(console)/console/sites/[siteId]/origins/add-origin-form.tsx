'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { addOriginAction } from '@/app/(console)/_lib/origin-actions';
import { ActionForm } from '@/components/action-form';
import { Field, VERBATIM } from '@/components/field';

export function AddOriginForm({ siteId }: { siteId: string }) {
  // React resets the form after the action: an added origin leaves an empty field, an error keeps what was typed.
  return (
    <ActionForm
      action={forSite(addOriginAction, siteId)}
      submit="Add origin"
      done={(origin) => (
        <>
          Added <span className="mono">{origin}</span>.
        </>
      )}
    >
      {(f) => (
        <Field
          {...f.field('origin')}
          {...VERBATIM}
          label="Origin"
          inputMode="url"
          maxLength={300}
          placeholder="https://app.example.com"
          hint="Scheme, host and port if not the default — no path. Each port is its own origin."
        />
      )}
    </ActionForm>
  );
}
