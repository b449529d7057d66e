'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { updateSiteAction } from '@/app/(console)/_lib/site-actions';
import { ActionForm } from '@/components/action-form';
import { Field, VERBATIM } from '@/components/field';

export function EditSiteForm({ siteId, name, domain }: { siteId: string; name: string; domain: string | null }) {
  // The form shows what was typed after an error, and the stored values after a save.
  return (
    <ActionForm action={forSite(updateSiteAction, siteId)} submit="Save" done={() => 'Saved.'}>
      {(f) => (
        <>
          <Field {...f.field('name', name)} label="Name" type="text" required maxLength={200} />
          <Field
            {...f.field('domain', domain ?? '')}
            {...VERBATIM}
            label="Domain"
            placeholder="example.com"
            hint="The shop's address: example.com, or paste its URL and the host is kept. Leave empty to remove it. Browsers on this domain (and its www. twin) may send tracking events without a key."
          />
        </>
      )}
    </ActionForm>
  );
}
