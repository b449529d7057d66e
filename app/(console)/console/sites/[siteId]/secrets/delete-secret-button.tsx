'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { deleteSecretAction } from '@/app/(console)/_lib/secret-actions';
import { ConfirmButton } from '@/components/confirm-button';

/** "Delete" asks for confirmation in a modal dialog; afterwards the focus moves to the secrets heading. */
export function DeleteSecretButton({ siteId, tokenId, identifier }: { siteId: string; tokenId: string; identifier: string }) {
  return (
    <ConfirmButton
      action={forSite(deleteSecretAction, siteId)}
      fields={{ token_id: tokenId }}
      label="Delete"
      subject={identifier}
      title={`Delete ${identifier}?`}
      confirm="Delete secret"
      pending="Deleting…"
      focusAfter="secrets-heading"
      id={`delete-${tokenId}`}
    >
      <p>Servers can no longer decrypt it, from their next request on. This cannot be undone.</p>
    </ConfirmButton>
  );
}
