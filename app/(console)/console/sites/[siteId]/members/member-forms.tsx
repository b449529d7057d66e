'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import type { FormState } from '@/app/(console)/_lib/forms';
import {
  changeRoleAction,
  inviteMemberAction,
  leaveSiteAction,
  removeMemberAction,
  revokeInvitationAction,
} from '@/app/(console)/_lib/member-actions';
import { ConfirmButton } from '@/components/confirm-button';
import { Field, FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';

const ROLE_HINTS: Record<string, string> = {
  admin: 'Admin — keys, settings, webhooks, members but the owner',
  member: 'Member — CRM, conversations, workflows, robots',
  viewer: 'Viewer — reads only',
};

/** Invites a person by mail with a role; the link works once, for 7 days. */
export function InviteForm({ siteId }: { siteId: string }) {
  const [state, action] = useActionState(forSite(inviteMemberAction, siteId), {} as FormState<string>);
  return (
    <form action={action} noValidate>
      <FormError message={state.errors?.form} />
      <Field
        name="email"
        label="Email"
        type="email"
        autoComplete="off"
        required
        defaultValue={state.values?.email}
        error={state.errors?.email}
        hint="They accept signed in with this address, or create an account for it from the link."
      />
      <div className="field">
        <label htmlFor="field-invite-role">Role</label>
        <select id="field-invite-role" name="role" defaultValue={state.values?.role ?? 'member'} aria-invalid={state.errors?.role ? true : undefined}>
          {Object.entries(ROLE_HINTS).map(([role, hint]) => (
            <option key={role} value={role}>
              {hint}
            </option>
          ))}
        </select>
        {state.errors?.role && <p className="error">{state.errors.role}</p>}
      </div>
      <p role="status" className="status">
        {state.result && <>Invitation mailed to {state.result}.</>}
      </p>
      <SubmitButton pending="Inviting…">Send invitation</SubmitButton>
    </form>
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
      <FormError message={state.errors && (state.errors.form ?? Object.values(state.errors)[0])} />
    </form>
  );
}

export function RemoveMemberButton({ siteId, userId, email }: { siteId: string; userId: string; email: string }) {
  return (
    <ConfirmButton
      action={forSite(removeMemberAction, siteId)}
      fields={{ user_id: userId }}
      label="Remove"
      subject={email}
      title={`Remove ${email}?`}
      confirm="Remove member"
      pending="Removing…"
      focusAfter="members-heading"
      id={`remove-${userId}`}
    >
      <p>Their access to this site ends with their next request. Leads assigned to them stay assigned.</p>
    </ConfirmButton>
  );
}

export function RevokeInvitationButton({ siteId, id, email }: { siteId: string; id: string; email: string }) {
  return (
    <ConfirmButton
      action={forSite(revokeInvitationAction, siteId)}
      fields={{ id }}
      label="Revoke"
      subject={email}
      title={`Revoke the invitation of ${email}?`}
      confirm="Revoke invitation"
      pending="Revoking…"
      focusAfter="invitations-heading"
      id={`revoke-${id}`}
    >
      <p>The link in the mail stops working at once.</p>
    </ConfirmButton>
  );
}

export function LeaveSiteButton({ siteId, name }: { siteId: string; name: string }) {
  return (
    <ConfirmButton
      action={forSite(leaveSiteAction, siteId)}
      fields={{}}
      label="Leave this site"
      subject={name}
      title={`Leave ${name}?`}
      confirm="Leave site"
      pending="Leaving…"
      focusAfter="members-heading"
      id="leave-site"
    >
      <p>You lose access at once; an owner or admin can invite you again.</p>
    </ConfirmButton>
  );
}
