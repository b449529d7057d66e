import type { JWT, JWTDecodeParams } from 'next-auth/jwt';
import { decode, encode } from 'next-auth/jwt';
import { authSecret } from '@/lib/auth/secret';
import { currentDate, now } from '@/lib/core/clock';
import { config } from '@/lib/core/config';
import { insertSession, isLiveSession, revokeSession, type SessionDevice } from './sessions-repo';

/**
 * Session tokens are next-auth JWTs (encrypted, JWE). The same token is the console's session
 * cookie and the `Authorization: Bearer <SESSION_TOKEN>` credential of scripts. Each names its
 * session (`sid`), a row of `user_sessions`: a token is accepted only while that row is not
 * revoked, so sign-out ends a session on the server and a password reset ends all of them.
 */
export const SESSION_COOKIES = ['__Secure-next-auth.session-token', 'next-auth.session-token'];

/**
 * The cookie the console keeps the session in. Its name is the one next-auth reads (so
 * `getServerSession` sees it): the `__Secure-` form when NEXTAUTH_URL is https, as next-auth
 * itself decides; authOptions() pins `useSecureCookies` to the same answer.
 */
export function sessionCookie(): { name: string; secure: boolean; maxAge: number } {
  const c = config();
  const secure = c.NEXTAUTH_URL?.startsWith('https://') ?? false;
  return { name: SESSION_COOKIES[secure ? 0 : 1], secure, maxAge: c.SESSION_MAX_AGE_SECONDS };
}

export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
}

/** Records a new session of `userId` (signed in from `device`, for the account's session list): the `sid` its token carries. */
export async function openSession(userId: string, device?: SessionDevice): Promise<string> {
  return insertSession(userId, currentDate(), new Date(now() + config().SESSION_MAX_AGE_SECONDS * 1000), device);
}

export async function issueSessionToken(user: SessionUser, device?: SessionDevice): Promise<{ token: string; expiresAt: Date }> {
  const maxAge = config().SESSION_MAX_AGE_SECONDS;
  const sid = await openSession(user.id, device);
  const token = await encode({
    token: { sub: user.id, email: user.email, name: user.name, sid },
    secret: authSecret(),
    maxAge,
  });
  return { token, expiresAt: new Date(now() + maxAge * 1000) };
}

/** The claims of a token whose signature, expiry and session all hold; null otherwise. */
export async function decodeLiveSession(params: JWTDecodeParams): Promise<JWT | null> {
  let payload: JWT | null;
  try {
    payload = await decode(params);
  } catch {
    return null;
  }
  const { sub, sid } = payload ?? {};
  if (typeof sub !== 'string' || typeof sid !== 'string') return null;
  return (await isLiveSession(sid, sub, currentDate())) ? payload : null;
}

/** The user and session a session token was issued for, or null when it is invalid, expired or ended. */
export async function verifySessionToken(token: string): Promise<{ userId: string; sessionId: string } | null> {
  const payload = await decodeLiveSession({ token, secret: authSecret() });
  return payload ? { userId: payload.sub as string, sessionId: payload.sid as string } : null;
}

/** Ends the session of a token (sign-out); a token that is not a live session changes nothing. */
export async function endSessionOf(token: string): Promise<void> {
  const session = await verifySessionToken(token);
  if (session) await revokeSession(session.sessionId, currentDate());
}

/** Ends a session by its id (next-auth's sign-out event hands over the decoded token). */
export const endSessionById = (sessionId: string) => revokeSession(sessionId, currentDate());

/** Reads the session cookie, including next-auth's chunked form (`name.0`, `name.1`, …). */
export function sessionCookieOf(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  const jar = new Map<string, string>();
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) jar.set(part.slice(0, eq).trim(), decodeURIComponent(part.slice(eq + 1).trim()));
  }
  for (const name of SESSION_COOKIES) {
    const whole = jar.get(name);
    if (whole) return whole;
    let chunked = '';
    for (let i = 0; jar.has(`${name}.${i}`); i++) chunked += jar.get(`${name}.${i}`);
    if (chunked) return chunked;
  }
  return null;
}
