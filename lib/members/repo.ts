import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { currentDate } from '@/lib/core/clock';
import { ApiError } from '@/lib/core/errors';
import type { SiteRole } from '@/lib/core/principal';
import { getDb, type Db } from '@/lib/db/client';
import { rows } from '@/lib/db/raw';
import { siteInvitations, siteMembers, sites, users } from '@/lib/db/schema';

/** The user's role on the site, or undefined when the user is not a member. Read on every request: a removal counts at once. */
export async function roleOf(siteId: string, userId: string): Promise<SiteRole | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({ role: siteMembers.role })
    .from(siteMembers)
    .where(and(eq(siteMembers.siteId, siteId), eq(siteMembers.userId, userId)))
    .limit(1);
  return row?.role;
}

export interface MemberRow {
  userId: string;
  email: string;
  name: string | null;
  role: SiteRole;
  createdAt: Date;
}

export async function listMembers(siteId: string): Promise<MemberRow[]> {
  const db = await getDb();
  return db
    .select({ userId: siteMembers.userId, email: users.email, name: users.name, role: siteMembers.role, createdAt: siteMembers.createdAt })
    .from(siteMembers)
    .innerJoin(users, eq(users.id, siteMembers.userId))
    .where(eq(siteMembers.siteId, siteId))
    .orderBy(sql`case ${siteMembers.role} when 'owner' then 0 when 'admin' then 1 when 'member' then 2 else 3 end`, asc(siteMembers.createdAt));
}

export async function findMember(siteId: string, userId: string): Promise<MemberRow | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({ userId: siteMembers.userId, email: users.email, name: users.name, role: siteMembers.role, createdAt: siteMembers.createdAt })
    .from(siteMembers)
    .innerJoin(users, eq(users.id, siteMembers.userId))
    .where(and(eq(siteMembers.siteId, siteId), eq(siteMembers.userId, userId)))
    .limit(1);
  return row;
}

/** True when some member of the site has this address (case-insensitive). */
export async function isMemberEmail(siteId: string, email: string, on?: Db): Promise<boolean> {
  const db = on ?? (await getDb());
  const [row] = await db
    .select({ id: siteMembers.userId })
    .from(siteMembers)
    .innerJoin(users, eq(users.id, siteMembers.userId))
    .where(and(eq(siteMembers.siteId, siteId), eq(sql`lower(${users.email})`, email.toLowerCase())))
    .limit(1);
  return Boolean(row);
}

/** Sets a member's role below owner; false when the user is not a member or is the owner (the owner changes by hand-over). */
export async function setMemberRole(siteId: string, userId: string, role: Exclude<SiteRole, 'owner'>): Promise<boolean> {
  const db = await getDb();
  const updated = await db
    .update(siteMembers)
    .set({ role, updatedAt: currentDate() })
    .where(and(eq(siteMembers.siteId, siteId), eq(siteMembers.userId, userId), sql`${siteMembers.role} <> 'owner'`))
    .returning({ userId: siteMembers.userId });
  return updated.length > 0;
}

/** Removes a member other than the owner; false when there was none. */
export async function deleteMember(siteId: string, userId: string): Promise<boolean> {
  const db = await getDb();
  const deleted = await db
    .delete(siteMembers)
    .where(and(eq(siteMembers.siteId, siteId), eq(siteMembers.userId, userId), sql`${siteMembers.role} <> 'owner'`))
    .returning({ userId: siteMembers.userId });
  return deleted.length > 0;
}

/**
 * Hands the site over: the new owner (already a member) becomes owner, the old one admin, and
 * `sites.owner_id` follows, in one transaction under the site's row lock. False when `to` is
 * not a member or `from` is no longer the owner.
 */
export async function transferOwnership(siteId: string, from: string, to: string): Promise<boolean> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [site] = await tx.select({ ownerId: sites.ownerId }).from(sites).where(eq(sites.id, siteId)).for('update');
    if (!site || site.ownerId !== from) return false;
    const at = currentDate();
    const [target] = await tx
      .select({ role: siteMembers.role })
      .from(siteMembers)
      .where(and(eq(siteMembers.siteId, siteId), eq(siteMembers.userId, to)))
      .for('update');
    if (!target) return false;
    // The old owner steps down first: one owner per site holds at every statement.
    await tx
      .update(siteMembers)
      .set({ role: 'admin', updatedAt: at })
      .where(and(eq(siteMembers.siteId, siteId), eq(siteMembers.userId, from)));
    await tx
      .update(siteMembers)
      .set({ role: 'owner', updatedAt: at })
      .where(and(eq(siteMembers.siteId, siteId), eq(siteMembers.userId, to)));
    await tx.update(sites).set({ ownerId: to, updatedAt: at }).where(eq(sites.id, siteId));
    return true;
  });
}

export interface InvitationRow {
  id: string;
  siteId: string;
  email: string;
  role: Exclude<SiteRole, 'owner'>;
  invitedBy: string | null;
  expiresAt: Date;
  createdAt: Date;
}

const invitationColumns = {
  id: siteInvitations.id,
  siteId: siteInvitations.siteId,
  email: siteInvitations.email,
  role: siteInvitations.role,
  invitedBy: siteInvitations.invitedBy,
  expiresAt: siteInvitations.expiresAt,
  createdAt: siteInvitations.createdAt,
};

const pending = (at: Date) => and(isNull(siteInvitations.acceptedAt), isNull(siteInvitations.revokedAt), gt(siteInvitations.expiresAt, at));

export async function listPendingInvitations(siteId: string): Promise<InvitationRow[]> {
  const db = await getDb();
  return db
    .select(invitationColumns)
    .from(siteInvitations)
    .where(and(eq(siteInvitations.siteId, siteId), pending(currentDate())))
    .orderBy(asc(siteInvitations.createdAt), asc(siteInvitations.id));
}

/** Members plus pending invitations of the site (what `members_per_site` counts), but for an open invitation of `replacing`. */
export async function countSeats(siteId: string, on: Db, replacing: string): Promise<number> {
  const [row] = await rows<{ n: number }>(
    sql`
    select ((select count(*) from site_members where site_id = ${siteId})
          + (select count(*) from site_invitations where site_id = ${siteId} and email <> ${replacing}
               and accepted_at is null and revoked_at is null and expires_at > ${currentDate()})
           )::int as n`,
    on,
  );
  return Number(row.n);
}

/**
 * A new invitation of the address, replacing any open one of the same site and address (a new
 * mail is a new link; the old link stops working). Runs on the cap's transaction.
 */
export async function insertInvitation(
  tx: Db,
  input: { siteId: string; email: string; role: Exclude<SiteRole, 'owner'>; tokenHash: string; invitedBy: string; expiresAt: Date },
): Promise<InvitationRow> {
  const at = currentDate();
  await tx
    .update(siteInvitations)
    .set({ revokedAt: at })
    .where(
      and(
        eq(siteInvitations.siteId, input.siteId),
        eq(siteInvitations.email, input.email),
        isNull(siteInvitations.acceptedAt),
        isNull(siteInvitations.revokedAt),
      ),
    );
  const [row] = await tx.insert(siteInvitations).values(input).returning(invitationColumns);
  return row;
}

/** Revokes a pending invitation of the site; false when there is none with this id. */
export async function revokeInvitation(siteId: string, id: string): Promise<boolean> {
  const db = await getDb();
  const at = currentDate();
  const revoked = await db
    .update(siteInvitations)
    .set({ revokedAt: at })
    .where(and(eq(siteInvitations.siteId, siteId), eq(siteInvitations.id, id), isNull(siteInvitations.acceptedAt), isNull(siteInvitations.revokedAt)))
    .returning({ id: siteInvitations.id });
  return revoked.length > 0;
}

export type Accepted = { siteId: string; role: SiteRole; joined: boolean };

/**
 * Spends the invitation for `user`, once: the statement that finds it pending also marks it
 * accepted, and the membership is added in the same transaction (a member already keeps the
 * role they have). `check` refuses a user the invitation is not for (nothing is spent then).
 */
export async function acceptInvitation(tokenHash: string, user: { id: string; email: string }, check: (invitation: InvitationRow) => void) {
  const db = await getDb();
  return db.transaction(async (tx): Promise<Accepted | undefined> => {
    const at = currentDate();
    const [invitation] = await tx
      .select(invitationColumns)
      .from(siteInvitations)
      .where(and(eq(siteInvitations.tokenHash, tokenHash), pending(at)))
      .for('update');
    if (!invitation) return undefined;
    check(invitation);
    await tx.update(siteInvitations).set({ acceptedAt: at, acceptedBy: user.id }).where(eq(siteInvitations.id, invitation.id));
    const joined = await tx
      .insert(siteMembers)
      .values({ siteId: invitation.siteId, userId: user.id, role: invitation.role, invitedBy: invitation.invitedBy })
      .onConflictDoNothing()
      .returning({ role: siteMembers.role });
    if (joined.length) return { siteId: invitation.siteId, role: joined[0].role, joined: true };
    const [existing] = await tx
      .select({ role: siteMembers.role })
      .from(siteMembers)
      .where(and(eq(siteMembers.siteId, invitation.siteId), eq(siteMembers.userId, user.id)));
    return { siteId: invitation.siteId, role: existing.role, joined: false };
  });
}

/** 400 unless every id is a member of the site: leads are assigned to the site's people only. */
export async function assertMembersOfSite(siteId: string, userIds: string[]): Promise<void> {
  const ids = [...new Set(userIds)];
  if (!ids.length) return;
  const db = await getDb();
  const found = await db
    .select({ userId: siteMembers.userId })
    .from(siteMembers)
    .where(and(eq(siteMembers.siteId, siteId), inArray(siteMembers.userId, ids)));
  const members = new Set(found.map((r) => r.userId));
  const strangers = ids.filter((id) => !members.has(id));
  if (strangers.length) {
    throw new ApiError('INVALID_REQUEST', `Not a member of this site: ${strangers.join(', ')}; leads are assigned to the site's members only`);
  }
}
