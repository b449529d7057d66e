import { decode, encode } from 'next-auth/jwt';
import { now } from '@/lib/core/clock';
import { config } from '@/lib/core/config';
import { authSecret } from './secret';

/**
 * Session tokens are next-auth JWTs (encrypted, JWE). The same token is the console's session
 * cookie and the `Authorization: Bearer <SESSION_TOKEN>` credential of scripts.
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

export async function issueSessionToken(user: SessionUser): Promise<{ token: string; expiresAt: Date }> {
  const maxAge = config().SESSION_MAX_AGE_SECONDS;
  const token = await encode({
    token: { sub: user.id, email: user.email, name: user.name },
    secret: authSecret(),
    maxAge,
  });
  return { token, expiresAt: new Date(now() + maxAge * 1000) };
}

/** The user id a session token was issued to, or null when it is invalid or expired. */
export async function verifySessionToken(token: string): Promise<string | null> {
  try {
    const payload = await decode({ token, secret: authSecret() });
    return typeof payload?.sub === 'string' ? payload.sub : null;
  } catch {
    return null;
  }
}

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
