'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { addSecretAction } from '@/app/(console)/_lib/secret-actions';
import { ActionForm } from '@/components/action-form';
import { Field, VERBATIM } from '@/components/field';

export function AddSecretForm({ siteId }: { siteId: string }) {
  return (
    <ActionForm
      action={forSite(addSecretAction, siteId)}
      submit="Store secret"
      done={(id) => (
        <>
          Stored <span className="mono">{id}</span>.
        </>
      )}
    >
      {(f) => (
        <>
          <Field
            {...f.field('identifier')}
            {...VERBATIM}
            label="Identifier"
            maxLength={200}
            placeholder="stripe.live"
            hint="Tells the secret apart within the site; servers decrypt it by its id."
          />
          <Field
            {...f.field('type', 'api_key')}
            {...VERBATIM}
            label="Type"
            maxLength={50}
            placeholder="api_key"
            hint="Lowercase, e.g. api_key, oauth_token, password, webhook_secret."
          />
          {/* The action never sends the value back: the field starts empty after an error too. */}
          <Field
            {...f.field('value')}
            label="Value"
            type="password"
            autoComplete="off"
            spellCheck={false}
            hint="Encrypted before it is stored. It is never shown again here; servers read it with a write key."
          />
        </>
      )}
    </ActionForm>
  );
}
