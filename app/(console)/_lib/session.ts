import { cookies, headers } from 'next/headers';
import { notFound, redirect } from 'next/navigation';
import { getServerSession } from 'next-auth';
import { isUuid } from '@/lib/core/schemas';
import { can, type Permission, type SiteRole } from '@/lib/members/permissions';
import type { SiteDetail } from '@/lib/sites/schema';
import { getSiteOfMember } from '@/lib/sites/service';
import { authOptions } from '@/lib/users/next-auth';
import type { User } from '@/lib/users/schema';
import { findUserById, type Client } from '@/lib/users/service';
import { endSessionOf, issueSessionToken, sessionCookie, sessionCookieOf, verifySessionToken, type SessionUser } from '@/lib/users/session-tokens';

/** The signed-in user, or null. A valid cookie whose account no longer exists counts as signed out. */
export async function currentUser(): Promise<User | null> {
  const session = await getServerSession(authOptions());
  const id = (session?.user as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string') return null;
  return (await findUserById(id)) ?? null;
}

/** The signed-in user; anyone else is sent to the sign-in page. */
export async function requireUser(): Promise<User> {
  const user = await currentUser();
  if (!user) redirect('/signin');
  return user;
}

/** The session the console's cookie names (a row of the account's sessions), or null. */
export async function currentSessionId(): Promise<string | null> {
  const token = sessionCookieOf((await headers()).get('cookie'));
  return token ? ((await verifySessionToken(token))?.sessionId ?? null) : null;
}

/** Starts a console session: the same next-auth JWT that /api/auth/token hands to scripts. */
export async function startSession(user: SessionUser, device?: Client): Promise<void> {
  const { token } = await issueSessionToken(user, device);
  const { name, secure, maxAge } = sessionCookie();
  (await cookies()).set(name, token, { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge });
}

/** Signs out: the session ends on the server (a copy of the cookie is refused too), then the cookie goes. */
export async function endSession(): Promise<void> {
  const token = sessionCookieOf((await headers()).get('cookie'));
  if (token) await endSessionOf(token);
  const jar = await cookies();
  const { name, secure } = sessionCookie();
  // next-auth splits large tokens into `name.0`, `name.1`, …: remove every part. A `__Secure-`
  // cookie can only be overwritten with the Secure flag, hence set-to-expired over delete().
  for (const cookie of jar.getAll()) {
    if (cookie.name === name || cookie.name.startsWith(`${name}.`)) {
      jar.set(cookie.name, '', { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: 0 });
    }
  }
}

/**
 * A site the signed-in user is a member of, with their role, when the role allows `permission`
 * (lib/members/permissions.ts); else the 404 page: a site another account cannot see, or a
 * page its role may not use, looks like no page at all.
 */
export async function requireSiteAccess(
  siteId: string,
  permission: Permission = 'site.read',
): Promise<{ user: User; site: SiteDetail; role: SiteRole }> {
  const user = await requireUser();
  const found = isUuid(siteId) ? await getSiteOfMember(siteId.toLowerCase(), user.id) : undefined;
  if (!found || !can(found.role, permission)) notFound();
  const { role, ...site } = found;
  return { user, site, role };
}
