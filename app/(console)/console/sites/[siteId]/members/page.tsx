import type { Metadata } from 'next';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { SectionTable } from '@/components/kit/section-table';
import { Time } from '@/components/time';
import { can } from '@/lib/members/permissions';
import { teamOf } from '@/lib/members/service';
import { InviteForm, LeaveSiteButton, RemoveMemberButton, RevokeInvitationButton, RoleForm } from './member-forms';

export const metadata: Metadata = { title: 'Members · Site Growth Platform' };

/** The site's people: every member sees the team; owners and admins invite, change roles and remove. */
export default async function MembersPage({ params }: { params: Promise<{ siteId: string }> }) {
  const { user, site, role } = await requireSiteAccess((await params).siteId);
  const { members, invitations } = await teamOf(site.id);
  const manages = can(role, 'members.manage');
  const handsOver = can(role, 'ownership.transfer');
  // Whose role the member may change, and whom remove: anyone but the owner and themselves.
  const changes = (m: (typeof members)[number]) => manages && m.role !== 'owner' && m.user_id !== user.id;
  return (
    <>
      <SectionTable
        title="Members"
        id="members"
        caption={`Members of ${site.name}`}
        rows={members}
        rowKey={(m) => m.user_id}
        empty="No members."
        columns={[
          { header: 'Member', className: 'wrap', cell: (m) => (m.name ? `${m.name} (${m.email})` : m.email) },
          {
            header: 'Role',
            cell: (m) => (changes(m) ? <RoleForm siteId={site.id} userId={m.user_id} role={m.role} canHandOver={handsOver} /> : m.role),
          },
          { header: 'Joined', cell: (m) => <Time iso={m.created_at} /> },
        ]}
        rowActions={(m) => changes(m) && <RemoveMemberButton siteId={site.id} userId={m.user_id} email={m.email} />}
      >
        {role !== 'owner' && <LeaveSiteButton siteId={site.id} name={site.name} />}
      </SectionTable>
      {manages && (
        <SectionTable
          title="Pending invitations"
          id="invitations"
          caption={`Pending invitations of ${site.name}`}
          rows={invitations}
          empty="No pending invitations."
          columns={[
            { header: 'Email', className: 'wrap', cell: (i) => i.email },
            { header: 'Role', cell: (i) => i.role },
            { header: 'Expires', cell: (i) => <Time iso={i.expires_at} /> },
            { header: 'Actions', cell: (i) => <RevokeInvitationButton siteId={site.id} id={i.id} email={i.email} /> },
          ]}
          add={{ title: 'Invite someone', id: 'invite', form: <InviteForm siteId={site.id} /> }}
        />
      )}
    </>
  );
}
