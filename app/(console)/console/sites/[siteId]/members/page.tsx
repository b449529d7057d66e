import type { Metadata } from 'next';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { DataTable } from '@/components/kit/data-table';
import { EmptyState } from '@/components/kit/empty-state';
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
  return (
    <>
      <Card title="Members" id="members">
        <DataTable
          caption={`Members of ${site.name}`}
          rows={members}
          rowKey={(m) => m.user_id}
          empty={<EmptyState title="No members." />}
          columns={[
            { header: 'Member', className: 'wrap', cell: (m) => (m.name ? `${m.name} (${m.email})` : m.email) },
            {
              header: 'Role',
              cell: (m) =>
                manages && m.role !== 'owner' && m.user_id !== user.id ? (
                  <RoleForm siteId={site.id} userId={m.user_id} role={m.role} canHandOver={handsOver} />
                ) : (
                  m.role
                ),
            },
            { header: 'Joined', cell: (m) => <Time iso={m.created_at} /> },
            {
              header: 'Actions',
              cell: (m) =>
                manages && m.role !== 'owner' && m.user_id !== user.id ? (
                  <RemoveMemberButton siteId={site.id} userId={m.user_id} email={m.email} />
                ) : (
                  <span className="empty">—</span>
                ),
            },
          ]}
        />
        {role !== 'owner' && <LeaveSiteButton siteId={site.id} name={site.name} />}
      </Card>
      {manages && (
        <>
          <Card title="Pending invitations" id="invitations">
            <DataTable
              caption={`Pending invitations of ${site.name}`}
              rows={invitations}
              rowKey={(i) => i.id}
              empty={<EmptyState title="No pending invitations." />}
              columns={[
                { header: 'Email', className: 'wrap', cell: (i) => i.email },
                { header: 'Role', cell: (i) => i.role },
                { header: 'Expires', cell: (i) => <Time iso={i.expires_at} /> },
                { header: 'Actions', cell: (i) => <RevokeInvitationButton siteId={site.id} id={i.id} email={i.email} /> },
              ]}
            />
          </Card>
          <Card title="Invite someone" id="invite">
            <InviteForm siteId={site.id} />
          </Card>
        </>
      )}
    </>
  );
}
