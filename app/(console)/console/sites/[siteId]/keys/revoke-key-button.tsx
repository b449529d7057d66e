'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { revokeKeyAction } from '@/app/(console)/_lib/key-actions';
import { ConfirmButton } from '@/components/confirm-button';

/** "Revoke" asks for confirmation in a modal dialog; afterwards the focus moves to the keys heading. */
export function RevokeKeyButton({ siteId, keyId, keyName }: { siteId: string; keyId: string; keyName: string }) {
  return (
    <ConfirmButton
      action={forSite(revokeKeyAction, siteId)}
      fields={{ key_id: keyId }}
      label="Revoke"
      subject={keyName}
      title={`Revoke “${keyName}”?`}
      confirm="Revoke key"
      pending="Revoking…"
      focusAfter="keys-heading"
      id={`revoke-${keyId}`}
    >
      <p>Requests with this key are refused from the next one on. This cannot be undone.</p>
    </ConfirmButton>
  );
}
