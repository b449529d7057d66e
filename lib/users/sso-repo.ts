import { and, eq, isNull } from 'drizzle-orm';
import { ApiError } from '@/lib/core/errors';
import { getDb } from '@/lib/db/client';
import { isUniqueViolation } from '@/lib/db/errors';
import { ssoIdentities, users, userSessions } from '@/lib/db/schema';
import type { User } from './schema';

/** An identity at the provider: its issuer, its subject there, and the verified address it asserted this time. */
export interface IdentityKey {
  issuer: string;
  subject: string;
  email: string;
}

const publicColumns = { id: users.id, email: users.email, name: users.name };

/** A race with another sign-in of the same identity or address (unique index): the caller looks again. */
function conflictOr(error: unknown): never {
  if (isUniqueViolation(error)) throw new ApiError('CONFLICT', 'This identity or address was linked meanwhile');
  throw error;
}

/** The account an identity is linked to, with the address it asserted now and the time recorded on the link. */
export async function signInLinkedIdentity(identity: IdentityKey, at: Date): Promise<User | undefined> {
  const db = await getDb();
  const [link] = await db
    .update(ssoIdentities)
    .set({ email: identity.email, lastSignInAt: at })
    .where(and(eq(ssoIdentities.issuer, identity.issuer), eq(ssoIdentities.subject, identity.subject)))
    .returning({ userId: ssoIdentities.userId });
  if (!link) return undefined;
  const [user] = await db.select(publicColumns).from(users).where(eq(users.id, link.userId)).limit(1);
  return user;
}

/** The account an identity is linked to (next-auth's token is made after the link was decided). */
export async function findIdentityUser(issuer: string, subject: string): Promise<User | undefined> {
  const db = await getDb();
  const [row] = await db
    .select(publicColumns)
    .from(ssoIdentities)
    .innerJoin(users, eq(users.id, ssoIdentities.userId))
    .where(and(eq(ssoIdentities.issuer, issuer), eq(ssoIdentities.subject, subject)))
    .limit(1);
  return row;
}

/** Whether the account already has an identity of this provider (another subject than the one signing in). */
export async function hasIdentityAt(userId: string, issuer: string): Promise<boolean> {
  const db = await getDb();
  const [row] = await db
    .select({ id: ssoIdentities.id })
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.userId, userId), eq(ssoIdentities.issuer, issuer)))
    .limit(1);
  return row !== undefined;
}

/**
 * Links an identity to the existing account with its address, which is verified from now on. An
 * account whose address was never verified was made by someone who did not prove it: its
 * password and sessions end in the same transaction, so they cannot sign in to the account the
 * address's owner now uses (the owner can set a password by reset).
 */
export async function linkIdentity(userId: string, identity: IdentityKey, at: Date): Promise<void> {
  const db = await getDb();
  await db
    .transaction(async (tx) => {
      await tx.insert(ssoIdentities).values({ userId, ...identity, createdAt: at, lastSignInAt: at });
      const [unproven] = await tx
        .update(users)
        .set({ passwordHash: null, emailVerifiedAt: at })
        .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)))
        .returning({ id: users.id });
      if (unproven) {
        await tx
          .update(userSessions)
          .set({ revokedAt: at })
          .where(and(eq(userSessions.userId, userId), isNull(userSessions.revokedAt)));
      }
    })
    .catch(conflictOr);
}

/** A new account for an identity: no password, its address verified by the provider, and the link. */
export async function insertIdentityUser(identity: IdentityKey, name: string | null, at: Date): Promise<User> {
  const db = await getDb();
  return db
    .transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({ email: identity.email, name, passwordHash: null, emailVerifiedAt: at, createdAt: at })
        .returning(publicColumns);
      await tx.insert(ssoIdentities).values({ userId: user.id, ...identity, createdAt: at, lastSignInAt: at });
      return user;
    })
    .catch(conflictOr);
}
