'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { deleteSecretAction } from '@/app/(console)/_lib/secret-actions';
import { RemoveButton } from '@/components/forms/remove-button';

/** "Delete" asks for confirmation in a modal dialog; afterwards the focus moves to the secrets heading. */
export function DeleteSecretButton({ siteId, tokenId, identifier }: { siteId: string; tokenId: string; identifier: string }) {
  return (
    <RemoveButton
      action={forSite(deleteSecretAction, siteId)}
      target={{ token_id: tokenId }}
      verb="Delete"
      noun="secret"
      subject={identifier}
      focusAfter="secrets-heading"
    >
      Servers can no longer decrypt it, from their next request on. This cannot be undone.
    </RemoveButton>
  );
}
