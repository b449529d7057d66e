'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { revokeKeyAction } from '@/app/(console)/_lib/key-actions';
import { RemoveButton } from '@/components/forms/remove-button';

/** "Revoke" asks for confirmation in a modal dialog; afterwards the focus moves to the keys heading. */
export function RevokeKeyButton({ siteId, keyId, keyName }: { siteId: string; keyId: string; keyName: string }) {
  return (
    <RemoveButton
      action={forSite(revokeKeyAction, siteId)}
      target={{ key_id: keyId }}
      verb="Revoke"
      noun="key"
      subject={keyName}
      title={`Revoke “${keyName}”?`}
      focusAfter="keys-heading"
    >
      Requests with this key are refused from the next one on. This cannot be undone.
    </RemoveButton>
  );
}
