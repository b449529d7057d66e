'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { createShareAction, revokeShareAction } from '@/app/(console)/_lib/share-actions';
import { ActionForm } from '@/components/action-form';
import { CopyButton } from '@/components/copy-button';
import { Field } from '@/components/field';
import { RemoveButton } from '@/components/forms/remove-button';

export function CreateShareForm({ siteId }: { siteId: string }) {
  return (
    <ActionForm action={forSite(createShareAction, siteId)} submit="Make link">
      {(f) => (
        <>
          <Field
            {...f.field('label')}
            label="Label"
            type="text"
            maxLength={100}
            placeholder="Investors"
            hint="Who the link is for, to tell links apart (optional)."
          />
          <Field
            {...f.field('password')}
            label="Password"
            type="password"
            autoComplete="new-password"
            hint="Optional, at least 8 characters: asked before the dashboard shows."
          />
          {f.state.result && (
            <div className="card secret" role="status" data-testid="share-url">
              <p>The link, shown this once (only a fingerprint of it is kept):</p>
              <code className="secret-value">{f.state.result}</code>
              <CopyButton text={f.state.result} label="Copy link" />
            </div>
          )}
        </>
      )}
    </ActionForm>
  );
}

export function RevokeShareButton({ siteId, linkId, label }: { siteId: string; linkId: string; label: string }) {
  const subject = label || 'this link';
  return (
    <RemoveButton
      action={forSite(revokeShareAction, siteId)}
      target={{ link_id: linkId }}
      verb="Revoke"
      noun="link"
      subject={subject}
      focusAfter="shares-heading"
    >
      Its page stops showing the dashboard at once; anyone opening it gets “not found”.
    </RemoveButton>
  );
}
