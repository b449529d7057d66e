import { isWellFormedApiKey } from '@/lib/auth/api-key-format';
import { ApiError } from '@/lib/core/errors';
import type { SessionPrincipal } from '@/lib/core/principal';
import { can } from '@/lib/members/permissions';
import { roleOf } from '@/lib/members/service';
import { findUserById } from '@/lib/users/service';
import { sessionCookieOf, verifySessionToken } from '@/lib/users/session-tokens';
import { bearerOf, type AuthStrategy, type SecurityRequirement } from './strategy';

/** The session token a request presents: `Authorization: Bearer` or the console's cookie. */
export const presentedSessionToken = (req: Request): string | null => bearerOf(req) ?? sessionCookieOf(req.headers.get('cookie'));

/** A signed-in user: `Authorization: Bearer <SESSION_TOKEN>` or the console's session cookie. API keys are refused. */
export const sessionStrategy: AuthStrategy<SessionPrincipal> = {
  kind: 'session',
  applies: () => true,
  async authenticate(req, policy) {
    const bearer = bearerOf(req);
    if (bearer && isWellFormedApiKey(bearer)) {
      throw new ApiError(
        'UNAUTHORIZED',
        policy.kind === 'apiKey' ? 'Send the API key in the X-API-Key header' : 'API keys are not accepted here; sign in and use a session token',
      );
    }
    const token = presentedSessionToken(req);
    if (!token) throw new ApiError('UNAUTHORIZED', 'Sign-in required (session cookie or Authorization: Bearer <SESSION_TOKEN>)');
    const session = await verifySessionToken(token);
    const user = session ? await findUserById(session.userId) : undefined;
    if (!session || !user) throw new ApiError('UNAUTHORIZED', 'Session is invalid or has expired');
    return { kind: 'session', user, sessionId: session.sessionId };
  },
  /**
   * A session may name a site its user is a member of, when the role allows the route's
   * permission. The role is read on every request: a removal or a lowered role counts from the
   * next one, on every instance.
   */
  async tenant(principal, requested, permission) {
    if (requested.length > 1) throw new ApiError('INVALID_REQUEST', 'Conflicting site_id values in the request');
    const [siteId] = requested;
    if (!siteId) return siteId;
    const role = await roleOf(siteId, principal.user.id);
    if (!role) throw new ApiError('FORBIDDEN', 'You do not have access to this site');
    if (!can(role, permission)) throw new ApiError('FORBIDDEN', `Your role on this site (${role}) does not allow this (${permission})`);
    return siteId;
  },
  limitSubject: (principal) => ({ bucket: `user:${principal.user.id}` }),
  schemes: {
    Bearer: { type: 'http', scheme: 'bearer', description: 'API key, or a session token on session routes' },
    SessionCookie: { type: 'apiKey', in: 'cookie', name: 'next-auth.session-token', description: 'Console session cookie' },
  },
  security: (): SecurityRequirement[] => [{ Bearer: [] }, { SessionCookie: [] }],
  note: (policy) =>
    policy.kind === 'apiKey'
      ? 'Without a key: a signed-in member of the site whose role allows it (session token or console cookie).'
      : 'Requires a signed-in user (session token or console cookie); API keys are refused.',
  errors: ['UNAUTHORIZED', 'FORBIDDEN'],
};
