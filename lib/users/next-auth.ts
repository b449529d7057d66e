import type { NextAuthOptions } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { authSecret } from '@/lib/auth/secret';
import { config } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';
import { errorFields, log } from '@/lib/core/log';
import { tokenBodySchema } from './schema';
import { checkCountingFailures, UNKNOWN_CLIENT, type Client } from './service';
import { decodeLiveSession, endSessionById, openSession, sessionCookie } from './session-tokens';
import { admitSignIn, signedInUser, ssoProviders } from './sso-provider';

/**
 * next-auth for the console: email + password, and single sign-on when OIDC_ISSUER is set
 * (./sso.ts); JWT sessions. Every token it issues names a session
 * row (`sid`) and every token it reads must name a live one (decodeLiveSession), so its sign-out
 * ends the session on the server and a password reset ends the sessions it started too.
 * `client` is the caller of next-auth's endpoints (nextAuthRoute): its sign-ins are recorded with it.
 */
export function authOptions(client: Client = UNKNOWN_CLIENT): NextAuthOptions {
  return {
    secret: authSecret(),
    session: { strategy: 'jwt', maxAge: config().SESSION_MAX_AGE_SECONDS },
    jwt: { decode: decodeLiveSession },
    // Errors of a single sign-on (a refused one, a failed callback) come back to the sign-in page as `?error=`.
    pages: { signIn: '/signin', error: '/signin' },
    useSecureCookies: sessionCookie().secure,
    providers: [
      Credentials({
        name: 'Email and password',
        credentials: {
          email: { label: 'Email', type: 'email' },
          password: { label: 'Password', type: 'password' },
          otp: { label: 'Two-factor code', type: 'text' },
        },
        async authorize(credentials) {
          // The form also carries next-auth's own fields (csrfToken, callbackUrl, json): only these are ours.
          const parsed = tokenBodySchema.safeParse({
            email: credentials?.email,
            password: credentials?.password,
            ...(credentials?.otp ? { otp: credentials.otp } : {}),
          });
          if (!parsed.success) return null;
          // The IP and account limits were checked by nextAuthRoute before next-auth ran. A missing or
          // wrong second factor is thrown: next-auth redirects to its error page with `error=OTP_REQUIRED`
          // (send `otp` too) or `error=Invalid two-factor code`, and sets no session cookie.
          try {
            const user = await checkCountingFailures(parsed.data, client);
            return user;
          } catch (error) {
            if (error instanceof ApiError && error.status === 401) throw new Error(error.code === 'OTP_REQUIRED' ? 'OTP_REQUIRED' : error.message);
            throw error;
          }
        },
      }),
      ...ssoProviders(),
    ],
    logger: {
      error: (code, metadata) => {
        // A session ended on the server (sign-out, password reset) reads as an invalid JWT: a signed-out visitor, not a fault.
        if (code === 'JWT_SESSION_ERROR') return log.debug(`next-auth: ${code}`);
        log.error(`next-auth: ${code}`, errorFields(metadata instanceof Error ? metadata : metadata.error));
      },
      // Without NEXTAUTH_URL next-auth warns on every start; the console signs in and out with
      // server actions and reads sessions with getServerSession, neither of which needs it.
      warn: (code) => {
        if (code !== 'NEXTAUTH_URL') log.warn(`next-auth: ${code}`);
      },
      // The code only: next-auth's debug metadata holds tokens, profiles and request data.
      debug: (code) => log.debug(`next-auth: ${code}`),
    },
    callbacks: {
      signIn: ({ account, profile }) => admitSignIn(account, profile),
      // `user` is present only at sign-in, when the token is first made.
      // The session row records who signed in from where (`client`: this request's caller).
      jwt: async ({ token, user, account }) => {
        if (!user) return token;
        const { id, email, name } = await signedInUser(user, account);
        return { ...token, sub: id, email, name, sid: await openSession(id, client) };
      },
      session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub } }),
    },
    events: {
      signOut: async ({ token }) => {
        if (typeof token?.sid === 'string') await endSessionById(token.sid);
      },
    },
  };
}
