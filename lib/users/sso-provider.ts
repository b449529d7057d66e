import type { Account, Profile, User } from 'next-auth';
import type { OAuthConfig } from 'next-auth/providers/oauth';
import { config } from '@/lib/core/config';
import { log } from '@/lib/core/log';
import { signInWithSso, ssoAccountOf } from './sso';

/**
 * Single sign-on with the OpenID Connect provider of OIDC_ISSUER, through next-auth's OAuth
 * provider: discovery from the issuer's /.well-known/openid-configuration, the authorization code
 * flow with PKCE and state, and the ID token verified by openid-client (signature from the
 * issuer's JWKS, issuer, audience, expiry). Its callback is /api/auth/callback/oidc.
 *
 * The issuer is the operator's configuration, not a URL a user chose: its requests (discovery,
 * token, JWKS, userinfo) go to it directly, not through the SSRF guard of lib/net, as those to
 * SMTP_URL or LLM_BASE_URL do.
 */
export const SSO_PROVIDER_ID = 'oidc';

type Claims = Profile & { iss?: string; sub?: string; email_verified?: unknown };
// openid-client's types, as next-auth's provider options name them (it is next-auth's dependency, not ours).
type UserinfoRequest = NonNullable<Extract<NonNullable<OAuthConfig<Claims>['userinfo']>, object>['request']>;
type TokenSet = Exclude<Parameters<Parameters<UserinfoRequest>[0]['client']['userinfo']>[0], string>;

/** The provider list next-auth gets: empty when OIDC_ISSUER is unset (no SSO, no button). */
export function ssoProviders(): OAuthConfig<Claims>[] {
  const c = config();
  if (!c.OIDC_ISSUER || !c.OIDC_CLIENT_ID || !c.OIDC_CLIENT_SECRET) return [];
  return [
    {
      id: SSO_PROVIDER_ID,
      name: c.OIDC_NAME,
      type: 'oauth',
      wellKnown: `${c.OIDC_ISSUER.replace(/\/+$/, '')}/.well-known/openid-configuration`,
      clientId: c.OIDC_CLIENT_ID,
      clientSecret: c.OIDC_CLIENT_SECRET,
      authorization: { params: { scope: 'openid email profile' } },
      idToken: true,
      checks: ['pkce', 'state'],
      userinfo: {
        // Many providers put the address in the userinfo answer only, not in the ID token: ask for
        // it when the token lacks it. openid-client checks that the answer's `sub` is the token's.
        async request({ tokens, client }) {
          // next-auth hands over the TokenSet its client.callback() made (typed as its parameters).
          const set = tokens as TokenSet;
          const claims = set.claims();
          if ((claims.email !== undefined && claims.email_verified !== undefined) || !client.issuer.metadata.userinfo_endpoint) return claims;
          const info = await client.userinfo(set);
          return { ...claims, ...info, iss: claims.iss, sub: claims.sub };
        },
      },
      profile: (claims) => ({ id: String(claims.sub), email: typeof claims.email === 'string' ? claims.email : null, name: claims.name ?? null }),
    },
  ];
}

/**
 * next-auth's signIn callback: the credentials provider decided already; a single sign-on links
 * or makes the account now, or is refused with a reason the sign-in page explains.
 */
export async function admitSignIn(account: Account | null, profile: Profile | undefined): Promise<true | string> {
  if (account?.provider !== SSO_PROVIDER_ID) return true;
  const outcome = await signInWithSso(profile);
  if ('user' in outcome) return true;
  if (outcome.refused === 'SsoWrongIssuer')
    log.warn('sso: the ID token names another issuer than OIDC_ISSUER; check OIDC_ISSUER against the provider’s discovery document');
  return `/signin?error=${outcome.refused}`;
}

/** The account a sign-in is for: next-auth's user for credentials, the linked account for single sign-on. */
export async function signedInUser(user: User, account: Account | null): Promise<{ id: string; email: string | null; name: string | null }> {
  if (account?.provider !== SSO_PROVIDER_ID) return { id: user.id, email: user.email ?? null, name: user.name ?? null };
  const linked = await ssoAccountOf(account.providerAccountId);
  if (!linked) throw new Error('single sign-on: the identity is not linked to an account');
  return linked;
}

/** The sign-in page's single sign-on button: the provider's name, or null when SSO is off. */
export function ssoButton(): { providerId: string; name: string } | null {
  const c = config();
  return c.OIDC_ISSUER ? { providerId: SSO_PROVIDER_ID, name: c.OIDC_NAME } : null;
}
