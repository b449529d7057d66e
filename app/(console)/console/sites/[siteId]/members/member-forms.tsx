'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import {
  changeRoleAction,
  inviteMemberAction,
  leaveSiteAction,
  removeMemberAction,
  revokeInvitationAction,
} from '@/app/(console)/_lib/member-actions';
import { ActionForm } from '@/components/action-form';
import { Field, FormError, SelectField } from '@/components/field';
import { formMessage } from '@/components/form-state';
import { RemoveButton } from '@/components/forms/remove-button';
import { SubmitButton } from '@/components/submit-button';

const ROLE_HINTS: Record<string, string> = {
  admin: 'Admin — keys, settings, webhooks, members but the owner',
  member: 'Member — CRM, conversations, workflows, robots',
  viewer: 'Viewer — reads only',
};

/** Invites a person by mail with a role; the link works once, for 7 days. */
export function InviteForm({ siteId }: { siteId: string }) {
  return (
    <ActionForm
      action={forSite(inviteMemberAction, siteId)}
      submit="Send invitation"
      pending="Inviting…"
      done={(email) => <>Invitation mailed to {email}.</>}
    >
      {(f) => (
        <>
          <Field
            {...f.field('email')}
            label="Email"
            type="email"
            autoComplete="off"
            required
            hint="They accept signed in with this address, or create an account for it from the link."
          />
          <SelectField
            {...f.field('role', 'member')}
            id="field-invite-role"
            label="Role"
            options={Object.entries(ROLE_HINTS).map(([value, label]) => ({ value, label }))}
          />
        </>
      )}
    </ActionForm>
  );
}

/** A member's role as a select; the owner may also hand the site over (role: owner). */
export function RoleForm({ siteId, userId, role, canHandOver }: { siteId: string; userId: string; role: string; canHandOver: boolean }) {
  const [state, action] = useActionState(forSite(changeRoleAction, siteId), {});
  const id = `role-${userId}`;
  return (
    <form action={action} noValidate className="row">
      <input type="hidden" name="user_id" value={userId} />
      <label htmlFor={id} className="visually-hidden">
        Role
      </label>
      <select key={role} id={id} name="role" defaultValue={role}>
        {canHandOver && <option value="owner">Owner (hand the site over; you become admin)</option>}
        {Object.keys(ROLE_HINTS).map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      <SubmitButton pending="Saving…" className="button small">
        Change role
      </SubmitButton>
      <FormError message={formMessage(state)} />
    </form>
  );
}

export function RemoveMemberButton({ siteId, userId, email }: { siteId: string; userId: string; email: string }) {
  return (
    <RemoveButton
      action={forSite(removeMemberAction, siteId)}
      target={{ user_id: userId }}
      verb="Remove"
      noun="member"
      subject={email}
      focusAfter="members-heading"
    >
      Their access to this site ends with their next request. Leads assigned to them stay assigned.
    </RemoveButton>
  );
}

export function RevokeInvitationButton({ siteId, id, email }: { siteId: string; id: string; email: string }) {
  return (
    <RemoveButton
      action={forSite(revokeInvitationAction, siteId)}
      target={{ id }}
      verb="Revoke"
      noun="invitation"
      subject={email}
      title={`Revoke the invitation of ${email}?`}
      focusAfter="invitations-heading"
    >
      The link in the mail stops working at once.
    </RemoveButton>
  );
}

export function LeaveSiteButton({ siteId, name }: { siteId: string; name: string }) {
  return (
    <RemoveButton
      action={forSite(leaveSiteAction, siteId)}
      target={{}}
      verb="Leave"
      label="Leave this site"
      noun="site"
      subject={name}
      focusAfter="members-heading"
      id="leave-site"
    >
      You lose access at once; an owner or admin can invite you again.
    </RemoveButton>
  );
}
