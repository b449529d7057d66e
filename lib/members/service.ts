import { generateApiKey, hashApiKey, isWellFormedApiKey } from '@/lib/auth/api-key-format';
import { now } from '@/lib/core/clock';
import { ApiError, found } from '@/lib/core/errors';
import type { SiteRole } from '@/lib/core/principal';
import { withinSiteCap } from '@/lib/sites/caps';
import { getSite } from '@/lib/sites/service';
import { recordAccountEvent } from '@/lib/users/account-events';
import { sendAccountMail } from '@/lib/users/account-mail';
import { can, type Permission } from './permissions';
import {
  acceptInvitation as spendInvitation,
  countSeats,
  deleteMember,
  findMember,
  insertInvitation,
  isMemberEmail,
  listMembers,
  listPendingInvitations,
  revokeInvitation,
  roleOf,
  setMemberRole,
  transferOwnership,
  type InvitationRow,
  type MemberRow,
} from './repo';
import type { Invitation, InviteMemberInput, Member } from './schema';

export { assertMembersOfSite, listMembers, roleOf } from './repo';

/**
 * A site's team: members with a role and the invitations mailed to new ones. The rules beside
 * the permission table: one owner, changed only by hand-over; an admin manages everyone but the
 * owner and never makes one; anyone but the owner may leave.
 */
const INVITATION_TTL_MS = 7 * 24 * 60 * 60_000;
const TOKEN_PREFIX = 'invite';

type Actor = { id: string; email: string; name: string | null };

const toMember = (row: MemberRow): Member => ({
  user_id: row.userId,
  email: row.email,
  name: row.name,
  role: row.role,
  created_at: row.createdAt.toISOString(),
});

const toInvitation = (row: InvitationRow): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  invited_by: row.invitedBy,
  expires_at: row.expiresAt.toISOString(),
  created_at: row.createdAt.toISOString(),
});

/** The caller's role, re-read for the rules that depend on it (the tenant step already admitted the caller). */
async function actorRole(siteId: string, actor: Actor): Promise<SiteRole> {
  const role = await roleOf(siteId, actor.id);
  if (!role) throw new ApiError('FORBIDDEN', 'You do not have access to this site');
  return role;
}

function need(role: SiteRole, permission: Permission): void {
  if (!can(role, permission)) throw new ApiError('FORBIDDEN', `Your role (${role}) does not allow this (${permission})`);
}

export async function teamOf(siteId: string): Promise<{ members: Member[]; invitations: Invitation[] }> {
  const [members, invitations] = await Promise.all([listMembers(siteId), listPendingInvitations(siteId)]);
  return { members: members.map(toMember), invitations: invitations.map(toInvitation) };
}

/**
 * Mails an invitation to `email` (replacing an open one to the same address). Members and pending
 * invitations together stay within the plan's `members_per_site` (403 PLAN_LIMIT_REACHED); an
 * address that already belongs to a member is 409. When the mail cannot go, the invitation is
 * revoked again and the error answered (502): no link exists that nobody received.
 */
export async function inviteMember(siteId: string, actor: Actor, input: InviteMemberInput, requestOrigin: string): Promise<Invitation> {
  need(await actorRole(siteId, actor), 'members.manage');
  const site = found(await getSite(siteId), 'Site');
  const token = generateApiKey(TOKEN_PREFIX);
  const invitation = await withinSiteCap(
    siteId,
    'members_per_site',
    (tx) => countSeats(siteId, tx, input.email),
    async (tx) => {
      if (await isMemberEmail(siteId, input.email, tx)) throw new ApiError('CONFLICT', 'This address already belongs to a member of the site');
      return insertInvitation(tx, {
        siteId,
        email: input.email,
        role: input.role,
        tokenHash: hashApiKey(token),
        invitedBy: actor.id,
        expiresAt: new Date(now() + INVITATION_TTL_MS),
      });
    },
  );
  try {
    await sendAccountMail(
      input.email,
      { kind: 'site_invitation', token, siteName: site.name, inviter: actor.name ? `${actor.name} (${actor.email})` : actor.email, role: input.role },
      requestOrigin,
    );
  } catch (error) {
    await revokeInvitation(siteId, invitation.id);
    throw error;
  }
  await recordAccountEvent({ userId: actor.id, siteId, kind: 'invitation_sent', detail: { invitation_id: invitation.id, role: input.role } });
  return toInvitation(invitation);
}

const invalidInvitation = () =>
  new ApiError('INVALID_REQUEST', 'This invitation link is invalid, was already used, was revoked or has expired; ask for a new one');

/**
 * Accepts an invitation for the signed-in account. Only the account whose address was invited
 * may (403 otherwise, and the link keeps working for that address); the link proves the mailbox,
 * so the account need not have verified its address first. Single use; 7 days.
 */
export async function acceptInvitation(user: Actor, token: string) {
  if (!isWellFormedApiKey(token) || !token.startsWith(`${TOKEN_PREFIX}_`)) throw invalidInvitation();
  const accepted = await spendInvitation(hashApiKey(token), user, (invitation) => {
    if (invitation.email.toLowerCase() !== user.email.toLowerCase()) {
      throw new ApiError('FORBIDDEN', 'This invitation was sent to another address; sign in with the invited address to accept it');
    }
  });
  if (!accepted) throw invalidInvitation();
  await recordAccountEvent({ userId: user.id, siteId: accepted.siteId, kind: 'invitation_accepted', detail: { role: accepted.role } });
  return { site_id: accepted.siteId, role: accepted.role, joined: accepted.joined };
}

/**
 * Changes a member's role. `owner` hands the site over (the owner only; the old owner becomes
 * admin). The owner's own role changes only that way, so a site always keeps one owner; an
 * admin changes anyone but the owner.
 */
export async function changeMemberRole(siteId: string, actor: Actor, userId: string, role: SiteRole): Promise<Member> {
  const mine = await actorRole(siteId, actor);
  const target = await findMember(siteId, userId);
  if (role === 'owner') {
    need(mine, 'ownership.transfer');
    if (!target) throw new ApiError('NOT_FOUND', 'Member not found');
    if (target.role !== 'owner' && !(await transferOwnership(siteId, actor.id, userId))) {
      throw new ApiError('CONFLICT', 'The site changed hands meanwhile; reload and try again');
    }
    await recordAccountEvent({ userId: actor.id, siteId, kind: 'ownership_transferred', detail: { to_user_id: userId } });
    return toMember(found(await findMember(siteId, userId), 'Member'));
  }
  need(mine, 'members.manage');
  if (!target) throw new ApiError('NOT_FOUND', 'Member not found');
  if (target.role === 'owner') {
    throw new ApiError('FORBIDDEN', "The owner's role changes only by handing the site over to another member (role: owner on them)");
  }
  if (!(await setMemberRole(siteId, userId, role))) throw new ApiError('NOT_FOUND', 'Member not found');
  await recordAccountEvent({ userId: actor.id, siteId, kind: 'role_changed', detail: { member_user_id: userId, from: target.role, to: role } });
  return toMember(found(await findMember(siteId, userId), 'Member'));
}

/**
 * Removes a member: their access ends with the next request (every request reads the role). A
 * member may remove themselves (leave); removing someone else needs `members.manage`; the owner
 * cannot be removed nor leave before handing the site over.
 */
export async function removeMember(siteId: string, actor: Actor, userId: string) {
  const mine = await actorRole(siteId, actor);
  if (userId !== actor.id) need(mine, 'members.manage');
  const target = await findMember(siteId, userId);
  if (!target) throw new ApiError('NOT_FOUND', 'Member not found');
  if (target.role === 'owner') {
    throw new ApiError('FORBIDDEN', 'The owner cannot be removed; hand the site over to another member first');
  }
  if (!(await deleteMember(siteId, userId))) throw new ApiError('NOT_FOUND', 'Member not found');
  await recordAccountEvent({ userId: actor.id, siteId, kind: 'member_removed', detail: { member_user_id: userId, role: target.role } });
  return { user_id: userId, removed: true as const };
}

export async function revokeInvitationOf(siteId: string, actor: Actor, id: string) {
  need(await actorRole(siteId, actor), 'members.manage');
  if (!(await revokeInvitation(siteId, id))) throw new ApiError('NOT_FOUND', 'Invitation not found');
  await recordAccountEvent({ userId: actor.id, siteId, kind: 'invitation_revoked', detail: { invitation_id: id } });
  return { id, revoked: true as const };
}

/** Whether the user is a member of the site, in any role. */
export const isSiteMember = async (siteId: string, userId: string): Promise<boolean> => (await roleOf(siteId, userId)) !== undefined;
